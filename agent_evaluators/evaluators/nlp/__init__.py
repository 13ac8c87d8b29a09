"""The NLP (reference-overlap) metrics, with azure-ai-evaluation 1.18's numbers.

One module per metric or small family: :mod:`.f1` (token F1), :mod:`.ngram` (BLEU, GLEU),
:mod:`.meteor`, :mod:`.rouge` (every ``RougeType``), :mod:`.document_retrieval` (NDCG, XDCG,
fidelity, holes); :mod:`.tokenize` is azure's tokenizer with its data from installed packages
(no download at run time), :mod:`.pair` the shared base of the text-pair metrics.
Nothing is imported here, so ``import agent_evaluators`` stays cheap.
"""
