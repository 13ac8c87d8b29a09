// Generate mastra_tool_call.json: Mastra's code tool-call accuracy scorer on a case table.
//
// Run it outside the repo's Python venv, in a Node folder of its own:
//
//   mkdir -p /work/refvenvs/mastra && cd /work/refvenvs/mastra
//   npm init -y && npm install @mastra/evals@1.10.2 "@mastra/core@1" zod
//   MASTRA_DIR=/work/refvenvs/mastra node tests/reference/gen_mastra_tool_call.mjs
//
// (MASTRA_DIR is the folder holding node_modules; it defaults to /work/refvenvs/mastra.)
// Each case runs createToolCallAccuracyScorerCode({expectedTool | expectedToolOrder, strictMode})
// on a run built with createAgentTestRun / createTestMessage / createToolInvocation, for
// strictMode false and true. The actual run is also written as OpenAI chat messages
// ("response"), which is what our tests feed to ToolTrajectoryEvaluator.expecting_*.

import { writeFileSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const MASTRA_DIR = process.env.MASTRA_DIR || "/work/refvenvs/mastra";
const mod = (p) => import(pathToFileURL(join(MASTRA_DIR, "node_modules", p)).href);
const prebuilt = await mod("@mastra/evals/dist/scorers/prebuilt/index.js");
const utils = await mod("@mastra/evals/dist/scorers/utils.js");
const version = (pkg) => JSON.parse(readFileSync(join(MASTRA_DIR, "node_modules", pkg, "package.json"), "utf8")).version;

// A case's actual run: a list of assistant messages, each a list of tool names called in it.
const CASES = [
  { name: "tool_called_alone", messages: [["weather"]], expectedTool: "weather" },
  { name: "tool_called_among_others", messages: [["search"], ["weather"]], expectedTool: "weather" },
  { name: "tool_called_twice", messages: [["weather"], ["weather"]], expectedTool: "weather" },
  { name: "other_tool_only", messages: [["search"]], expectedTool: "weather" },
  { name: "no_tool_calls", messages: [[]], expectedTool: "weather" },
  { name: "order_exact", messages: [["flight"], ["hotel"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_extra_between", messages: [["flight"], ["weather"], ["hotel"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_extra_after", messages: [["flight"], ["hotel"], ["weather"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_reversed", messages: [["hotel"], ["flight"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_duplicate_first", messages: [["flight"], ["flight"], ["hotel"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_missing", messages: [["flight"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_no_calls", messages: [[]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_parallel_in_one_message", messages: [["flight", "hotel"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_first_occurrence_pitfall", messages: [["hotel"], ["flight"], ["hotel"]], expectedToolOrder: ["flight", "hotel"] },
  { name: "order_repeated_name", messages: [["flight"], ["flight"]], expectedToolOrder: ["flight", "flight"] },
  { name: "order_repeated_name_with_extra", messages: [["flight"], ["hotel"], ["flight"]], expectedToolOrder: ["flight", "flight"] },
];

let callId = 0;
function mastraRun(messages) {
  const output = messages.map((names, i) =>
    utils.createTestMessage({
      id: `m${i}`,
      role: "assistant",
      content: names.length ? "" : "I can answer without tools.",
      toolInvocations: names.map((toolName) =>
        utils.createToolInvocation({ toolCallId: `c${++callId}`, toolName, args: {}, result: {}, state: "result" })
      ),
    })
  );
  const inputMessages = [utils.createTestMessage({ id: "u0", role: "user", content: "Plan my trip" })];
  return utils.createAgentTestRun({ inputMessages, output });
}

function openaiMessages(messages) {
  const out = [{ role: "user", content: "Plan my trip" }];
  for (const names of messages) {
    if (!names.length) {
      out.push({ role: "assistant", content: "I can answer without tools." });
      continue;
    }
    const calls = names.map((name) => ({ id: `c${++callId}`, type: "function", function: { name, arguments: "{}" } }));
    out.push({ role: "assistant", content: "", tool_calls: calls });
    for (const c of calls) out.push({ role: "tool", tool_call_id: c.id, content: "{}" });
  }
  return out;
}

const entries = [];
for (const c of CASES) {
  const scores = {};
  for (const strictMode of [false, true]) {
    const options = c.expectedToolOrder ? { expectedToolOrder: c.expectedToolOrder, strictMode } : { expectedTool: c.expectedTool, strictMode };
    const scorer = prebuilt.createToolCallAccuracyScorerCode(options);
    const result = await scorer.run(mastraRun(c.messages));
    scores[strictMode ? "strict" : "lenient"] = result.score;
  }
  entries.push({ ...c, response: openaiMessages(c.messages), mastra: scores });
}

const here = dirname(fileURLToPath(import.meta.url));
const meta = {
  generator: "tests/reference/gen_mastra_tool_call.mjs",
  scorer: "createToolCallAccuracyScorerCode (@mastra/evals/scorers/prebuilt)",
  versions: { "@mastra/evals": version("@mastra/evals"), "@mastra/core": version("@mastra/core"), node: process.versions.node },
};
writeFileSync(join(here, "mastra_tool_call.json"), JSON.stringify({ meta, cases: entries }, null, 1) + "\n");
console.log(`wrote ${entries.length} cases`);
