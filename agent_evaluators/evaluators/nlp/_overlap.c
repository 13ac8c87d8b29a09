/* _overlap: how many n-grams two token strings share, counted as a multiset, in C.
 *
 * This is the inner loop of token F1 and ROUGE-N (agent_evaluators/evaluators/nlp/grams.py).
 * In Python it costs about 50 ns per token, nearly all of it making a bytes object per token,
 * hashing it and updating a dict; here the tokens stay spans of the caller's buffers. The
 * pure-Python version in grams.py is the reference: tests/evaluators/test_nlp_grams.py checks
 * that both give the same three integers on generated inputs, and the parity tests check both
 * against azure-ai-evaluation. A build without a C compiler simply uses the Python version.
 *
 * shared_grams(a: bytes, b: bytes, n: int, drop_articles: bool) -> (shared, tokens_a, tokens_b)
 *
 * A token is a maximal run of bytes other than ASCII whitespace (space, \t, \n, \v, \f, \r:
 * what Python's bytes.split() splits on). With drop_articles, the
 * tokens "a", "an" and "the" are left out first (SQuAD/azure F1's normalisation). The n-grams
 * of a token list are its n consecutive tokens at each position (none when it is shorter than
 * n). ``shared`` is the size of the multiset intersection of the two lists' n-grams: the sum
 * over distinct n-grams of the smaller of the two counts.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    const unsigned char *start;
    Py_ssize_t len;
    uint64_t hash;
} Token;

/* FNV-1a's offset basis, mixed at import with random bytes so that hash collisions cannot be
 * planned from outside (as Python randomises its own string hashes) */
static uint64_t hash_seed = 1469598103934665603ULL;

static int
is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static int
is_article(const unsigned char *s, Py_ssize_t len)
{
    return (len == 1 && s[0] == 'a') || (len == 2 && s[0] == 'a' && s[1] == 'n') ||
           (len == 3 && s[0] == 't' && s[1] == 'h' && s[2] == 'e');
}

/* Below this many token slots (texts of up to about 64 KB) the tables are sized by the byte length
 * bound, saving a pass; above it, by the tokens counted (at most 2 MB of tables either way here). */
#define SMALL_TEXT_ROOM 32768

/* How many tokens buf holds (before articles are dropped): what the token arrays are sized by, so
 * memory follows the token count, not the byte length (one 200 MB token is one token). */
static Py_ssize_t
count_tokens(const unsigned char *buf, Py_ssize_t len)
{
    Py_ssize_t count = 0;
    int in_token = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        int space = is_space(buf[i]);
        count += !space && !in_token;
        in_token = !space;
    }
    return count;
}

/* The tokens of buf, each with its hash; out has room for count_tokens(buf, len) tokens. */
static Py_ssize_t
split_tokens(const unsigned char *buf, Py_ssize_t len, int drop_articles, Token *out)
{
    Py_ssize_t count = 0, i = 0;
    while (i < len) {
        while (i < len && is_space(buf[i])) {
            i++;
        }
        if (i >= len) {
            break;
        }
        Py_ssize_t start = i;
        uint64_t h = hash_seed;
        while (i < len && !is_space(buf[i])) {
            h = (h ^ buf[i]) * 1099511628211ULL;
            i++;
        }
        if (drop_articles && is_article(buf + start, i - start)) {
            continue;
        }
        out[count].start = buf + start;
        out[count].len = i - start;
        out[count].hash = h;
        count++;
    }
    return count;
}

/* The smallest power of two >= 2 * items (at least 8): an open-addressing table's size. */
static size_t
table_size(Py_ssize_t items)
{
    size_t size = 8;
    while (size < (size_t)items * 2) {
        size <<= 1;
    }
    return size;
}

/* Give every distinct token of a and b a number (0, 1, ...); ids_a[i] is a's i-th token's. */
static Py_ssize_t
number_tokens(const Token *a, Py_ssize_t na, const Token *b, Py_ssize_t nb, Py_ssize_t *ids_a,
              Py_ssize_t *ids_b, Py_ssize_t *slots, const Token **distinct, size_t mask)
{
    Py_ssize_t count = 0;
    for (int side = 0; side < 2; side++) {
        const Token *tokens = side ? b : a;
        Py_ssize_t n = side ? nb : na;
        Py_ssize_t *ids = side ? ids_b : ids_a;
        for (Py_ssize_t i = 0; i < n; i++) {
            const Token *t = &tokens[i];
            size_t slot = (size_t)t->hash & mask;
            for (;;) {
                Py_ssize_t id = slots[slot];
                if (id < 0) {
                    slots[slot] = count;
                    distinct[count] = t;
                    ids[i] = count++;
                    break;
                }
                const Token *d = distinct[id];
                if (d->hash == t->hash && d->len == t->len && memcmp(d->start, t->start, (size_t)t->len) == 0) {
                    ids[i] = id;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }
    return count;
}

static uint64_t
gram_hash(const Py_ssize_t *ids, Py_ssize_t n)
{
    uint64_t h = hash_seed;
    for (Py_ssize_t k = 0; k < n; k++) {
        h = (h ^ (uint64_t)ids[k]) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

/* The shared n-grams (n >= 2) of two token-number lists: a's counted in a table keyed by the
 * position of each distinct n-gram's first occurrence, then b's used up against it. */
static Py_ssize_t
shared_long_grams(const Py_ssize_t *ids_a, Py_ssize_t na, const Py_ssize_t *ids_b, Py_ssize_t nb, Py_ssize_t n)
{
    Py_ssize_t grams_a = na - n + 1, grams_b = nb - n + 1, shared = 0;
    if (grams_a <= 0 || grams_b <= 0) {
        return 0;
    }
    size_t size = table_size(grams_a), mask = size - 1;
    Py_ssize_t *first = PyMem_RawMalloc(size * sizeof(Py_ssize_t));
    Py_ssize_t *count = PyMem_RawMalloc(size * sizeof(Py_ssize_t));
    if (first == NULL || count == NULL) {
        PyMem_RawFree(first);
        PyMem_RawFree(count);
        return -1;
    }
    memset(first, 0xff, size * sizeof(Py_ssize_t)); /* -1: an empty slot */
    size_t width = (size_t)n * sizeof(Py_ssize_t);
    for (Py_ssize_t i = 0; i < grams_a; i++) {
        size_t slot = (size_t)gram_hash(ids_a + i, n) & mask;
        while (first[slot] >= 0 && memcmp(ids_a + first[slot], ids_a + i, width) != 0) {
            slot = (slot + 1) & mask;
        }
        if (first[slot] < 0) {
            first[slot] = i;
            count[slot] = 1;
        }
        else {
            count[slot]++;
        }
    }
    for (Py_ssize_t j = 0; j < grams_b; j++) {
        size_t slot = (size_t)gram_hash(ids_b + j, n) & mask;
        while (first[slot] >= 0 && memcmp(ids_a + first[slot], ids_b + j, width) != 0) {
            slot = (slot + 1) & mask;
        }
        if (first[slot] >= 0 && count[slot] > 0) {
            count[slot]--;
            shared++;
        }
    }
    PyMem_RawFree(first);
    PyMem_RawFree(count);
    return shared;
}

/* The shared tokens: a's counted per token number, then b's used up against the counts. */
static Py_ssize_t
shared_tokens(const Py_ssize_t *ids_a, Py_ssize_t na, const Py_ssize_t *ids_b, Py_ssize_t nb, Py_ssize_t distinct)
{
    Py_ssize_t *count = PyMem_RawCalloc((size_t)distinct + 1, sizeof(Py_ssize_t));
    Py_ssize_t shared = 0;
    if (count == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < na; i++) {
        count[ids_a[i]]++;
    }
    for (Py_ssize_t j = 0; j < nb; j++) {
        if (count[ids_b[j]] > 0) {
            count[ids_b[j]]--;
            shared++;
        }
    }
    PyMem_RawFree(count);
    return shared;
}

static PyObject *
shared_grams(PyObject *module, PyObject *args)
{
    const char *a, *b;
    Py_ssize_t len_a, len_b, n;
    int drop_articles;
    (void)module;
    if (!PyArg_ParseTuple(args, "y#y#np:shared_grams", &a, &len_a, &b, &len_b, &n, &drop_articles)) {
        return NULL;
    }
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "shared_grams: n must be at least 1");
        return NULL;
    }
    Py_ssize_t na = 0, nb = 0, shared = -1;
    /* the buffers belong to bytes objects that args holds, so long texts are counted without the GIL */
    PyThreadState *released = len_a + len_b > 8192 ? PyEval_SaveThread() : NULL;
    /* Room for every token: a text of len bytes has at most len / 2 + 1. On long texts the tokens are
     * counted first, so the tables follow the tokens there are and not the bytes (one 200 MB token is
     * one token, not room for 100 million); short texts skip that pass, their bound being small. */
    Py_ssize_t room = len_a / 2 + len_b / 2 + 2;
    if (room > SMALL_TEXT_ROOM) {
        room = count_tokens((const unsigned char *)a, len_a) + count_tokens((const unsigned char *)b, len_b) + 1;
    }
    Token *tokens = PyMem_RawMalloc((size_t)room * sizeof(Token));
    Py_ssize_t *ids = PyMem_RawMalloc((size_t)room * sizeof(Py_ssize_t));
    const Token **distinct = PyMem_RawMalloc((size_t)room * sizeof(Token *));
    size_t size = table_size(room), mask = size - 1;
    Py_ssize_t *slots = PyMem_RawMalloc(size * sizeof(Py_ssize_t));
    if (tokens != NULL && ids != NULL && distinct != NULL && slots != NULL) {
        na = split_tokens((const unsigned char *)a, len_a, drop_articles, tokens);
        nb = split_tokens((const unsigned char *)b, len_b, drop_articles, tokens + na);
        memset(slots, 0xff, size * sizeof(Py_ssize_t));
        Py_ssize_t count = number_tokens(tokens, na, tokens + na, nb, ids, ids + na, slots, distinct, mask);
        shared = n == 1 ? shared_tokens(ids, na, ids + na, nb, count) : shared_long_grams(ids, na, ids + na, nb, n);
    }
    PyMem_RawFree(tokens);
    PyMem_RawFree(ids);
    PyMem_RawFree(distinct);
    PyMem_RawFree(slots);
    if (released != NULL) {
        PyEval_RestoreThread(released);
    }
    if (shared < 0) {
        return PyErr_NoMemory();
    }
    return Py_BuildValue("nnn", shared, na, nb);
}

static PyMethodDef methods[] = {
    {"shared_grams", shared_grams, METH_VARARGS,
     "shared_grams(a, b, n, drop_articles) -> (shared, tokens_a, tokens_b): the n-grams two "
     "whitespace-separated token strings share, as a multiset, and each one's token count."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_overlap", "Shared n-gram counts for F1 and ROUGE-N, in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__overlap(void)
{
    PyObject *os = PyImport_ImportModule("os");
    if (os == NULL) {
        return NULL;
    }
    PyObject *random = PyObject_CallMethod(os, "urandom", "i", 8);
    Py_DECREF(os);
    if (random == NULL) {
        return NULL;
    }
    const unsigned char *bytes = (const unsigned char *)PyBytes_AsString(random);
    if (bytes == NULL) {
        Py_DECREF(random);
        return NULL;
    }
    for (int k = 0; k < 8; k++) {
        hash_seed = (hash_seed ^ bytes[k]) * 1099511628211ULL;
    }
    Py_DECREF(random);
    return PyModule_Create(&module);
}
