// Generate mastra_answer_similarity.json: Mastra's answer-similarity score for hand-built analyses.
//
// Run it outside the repo's Python venv, in a Node folder of its own:
//
//   mkdir -p /work/refvenvs/mastra && cd /work/refvenvs/mastra
//   npm init -y && npm install @mastra/evals@1.10.2 "@mastra/core@1" zod
//   MASTRA_DIR=/work/refvenvs/mastra node tests/reference/gen_mastra_answer_similarity.mjs
//
// (MASTRA_DIR is the folder holding node_modules; it defaults to /work/refvenvs/mastra.)
// Each case runs the real createAnswerSimilarityScorer({model, options}).run(...) with a mock
// LanguageModelV2 as the judge: its 1st reply is the extraction, its 2nd the case's analysis,
// its 3rd the reason text. Mastra's own generateScore step then computes the score, which is
// what tests/llm_judges/test_answer_similarity_formula.py compares answer_similarity_score with.

import { writeFileSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const MASTRA_DIR = process.env.MASTRA_DIR || "/work/refvenvs/mastra";
const mod = (p) => import(pathToFileURL(join(MASTRA_DIR, "node_modules", p)).href);
const prebuilt = await mod("@mastra/evals/dist/scorers/prebuilt/index.js");
const utils = await mod("@mastra/evals/dist/scorers/utils.js");
const version = (pkg) => JSON.parse(readFileSync(join(MASTRA_DIR, "node_modules", pkg, "package.json"), "utf8")).version;

// A case: match types of the ground-truth units, number of extra output units, number of contradictions, options.
const CASES = [
  { name: "one_exact", matches: ["exact"] },
  { name: "two_semantic", matches: ["semantic", "semantic"] },
  { name: "one_of_each", matches: ["exact", "semantic", "partial", "missing"] },
  { name: "contradiction_default_penalty", matches: ["exact", "missing"], contradictions: 1 },
  { name: "extra_cap", matches: ["exact", "exact", "exact"], extra: 5 },
  { name: "one_extra", matches: ["exact", "exact"], extra: 1 },
  { name: "all_missing", matches: ["missing", "missing"] },
  { name: "no_matches", matches: [] },
  { name: "one_partial", matches: ["partial"] },
  { name: "custom_penalty_and_scale", matches: ["exact", "semantic"], contradictions: 1, options: { contradictionPenalty: 0.3, scale: 10 } },
  { name: "custom_threshold_no_bonus", matches: ["semantic", "semantic"], options: { semanticThreshold: 0.9, exactMatchBonus: 0 } },
  { name: "no_missing_penalty", matches: ["exact", "missing"], options: { missingPenalty: 0 } },
  { name: "one_contradiction_custom", matches: ["exact", "exact"], contradictions: 1, options: { contradictionPenalty: 0.25 } },
  { name: "two_contradictions_custom", matches: ["exact", "exact"], contradictions: 2, options: { contradictionPenalty: 0.25 } },
  { name: "cap_with_large_extra_penalty", matches: ["exact"], extra: 10, options: { extraInfoPenalty: 0.5 } },
  { name: "cap_not_scaled", matches: ["exact"], extra: 10, options: { extraInfoPenalty: 0.5, scale: 5 } },
  { name: "below_cap", matches: ["exact"], extra: 3, options: { extraInfoPenalty: 0.01 } },
  { name: "scale_100", matches: ["exact", "missing"], options: { scale: 100 } },
  { name: "clamp_before_scale", matches: ["exact", "exact"], options: { scale: 3 } },
  { name: "round_half_up", matches: ["partial"], options: { semanticThreshold: 0.25, exactMatchBonus: 0 } },
  { name: "semantic_partial_missing", matches: ["semantic", "partial", "missing"] },
  { name: "missing_and_extra", matches: ["exact", "missing"], extra: 1 },
  { name: "missing_and_extra_scale_2", matches: ["exact", "missing"], extra: 1, options: { scale: 2 } },
  { name: "three_exact_one_missing_one_extra", matches: ["exact", "exact", "exact", "missing"], extra: 1 },
  { name: "contradiction_only_penalty_small", matches: ["semantic", "partial", "missing", "missing"], extra: 1, contradictions: 1, options: { contradictionPenalty: 0.1 } },
];

function mockModel(replies) {
  let i = 0;
  const next = () => {
    const r = replies[Math.min(i, replies.length - 1)];
    i++;
    return typeof r === "string" ? r : JSON.stringify(r);
  };
  const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  return {
    specificationVersion: "v2", provider: "mock", modelId: "mock", supportedUrls: {},
    async doGenerate() { return { content: [{ type: "text", text: next() }], finishReason: "stop", usage, warnings: [] }; },
    async doStream() {
      const text = next();
      return { stream: new ReadableStream({ start(c) {
        c.enqueue({ type: "stream-start", warnings: [] });
        c.enqueue({ type: "text-start", id: "t" });
        c.enqueue({ type: "text-delta", id: "t", delta: text });
        c.enqueue({ type: "text-end", id: "t" });
        c.enqueue({ type: "finish", finishReason: "stop", usage });
        c.close();
      } }) };
    },
  };
}

const entries = [];
for (const c of CASES) {
  const analysis = {
    matches: c.matches.map((t, i) => ({ groundTruthUnit: `g${i}`, outputUnit: t === "missing" ? null : `o${i}`, matchType: t, explanation: "" })),
    extraInOutput: Array.from({ length: c.extra || 0 }, (_, i) => `x${i}`),
    contradictions: Array.from({ length: c.contradictions || 0 }, (_, i) => ({ outputUnit: `o${i}`, groundTruthUnit: `g${i}`, explanation: "" })),
  };
  const extraction = { outputUnits: ["o"], groundTruthUnits: c.matches.map((_, i) => `g${i}`) };
  const model = mockModel([extraction, analysis, "reason"]);
  const scorer = prebuilt.createAnswerSimilarityScorer({ model, options: c.options || {} });
  const run = utils.createAgentTestRun({
    inputMessages: [utils.createTestMessage({ id: "u", role: "user", content: "question" })],
    output: [utils.createTestMessage({ id: "a", role: "assistant", content: "answer" })],
  });
  run.groundTruth = "ground truth";
  const result = await scorer.run(run);
  entries.push({ name: c.name, analysis, options: c.options || {}, score: result.score });
}

const out = {
  generator: "tests/reference/gen_mastra_answer_similarity.mjs",
  versions: { "@mastra/evals": version("@mastra/evals"), "@mastra/core": version("@mastra/core"), node: process.version },
  entries,
};
const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(join(here, "mastra_answer_similarity.json"), JSON.stringify(out, null, 1) + "\n");
console.log(`wrote ${entries.length} entries`);
