"""Make the trace fixtures of ``tests/traces/fixtures/`` with the real instrumentations.

A dev step, not a test dependency: the instrumentations would change versions in the shared
environment, so run it from a private virtualenv that has them::

    python3 -m venv /tmp/venv-traces
    /tmp/venv-traces/bin/pip install google-adk openai opentelemetry-sdk \\
        opentelemetry-exporter-otlp-proto-common opentelemetry-instrumentation-openai-v2 \\
        openinference-instrumentation-openai
    python3 -m venv /tmp/venv-traces-legacy    # the v1.30 events: an older openai-v2 instrumentation
    /tmp/venv-traces-legacy/bin/pip install "opentelemetry-instrumentation-openai-v2==2.1b0" \
        "opentelemetry-sdk==1.33.1" "opentelemetry-exporter-otlp-proto-common==1.33.1" openai .
    PYTHONPATH=$PWD /tmp/venv-traces/bin/python tests/traces/make_trace_fixtures.py \
        --legacy-python /tmp/venv-traces-legacy/bin/python

Each producer runs in a process of its own (an instrumentation reads its settings when it
patches the client) and writes what the OpenTelemetry collector's ``file`` exporter writes:
one ``ExportTraceServiceRequest`` / ``ExportLogsServiceRequest`` as OTLP/JSON per line
(camelCase names, hex trace and span ids, enums as numbers), one line per export, so a trace
is split across lines. ``manifest.json`` records the versions of everything that made them.

Producers:

- ``adk``: the sample ADK agent (``samples/adk_agent``) through ADK's own ``Runner``; the spans
  are ADK's (``invoke_agent``, ``call_llm``, ``execute_tool``).
- ``openai_v2_attributes`` / ``openai_v2_events`` / ``openai_v2_legacy``: an OpenAI-client tool loop
  against the bundled fake judge, instrumented by ``opentelemetry-instrumentation-openai-v2`` with
  content capture on: the latest conventions with the messages as span attributes
  (``gen_ai.input.messages`` / ``gen_ai.output.messages``) or in a log event
  (``gen_ai.client.inference.operation.details``), and the older instrumentation's v1.30
  conventions (``gen_ai.user.message`` ... ``gen_ai.choice`` log events linked by trace/span id).
- ``openinference``: the same loop instrumented by ``openinference-instrumentation-openai``.

The loop's ``invoke_agent`` and ``execute_tool`` spans are the application's own (an
instrumented client only traces its requests), written the way the conventions describe.
"""

import asyncio
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Dict, List, Sequence

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
ROOT = HERE.parents[1]

PRODUCERS = ("adk", "openai_v2_attributes", "openai_v2_events", "openai_v2_legacy", "openinference")

#: the distributions whose versions a fixture depends on
_VERSIONS = ("google-adk", "openai", "opentelemetry-api", "opentelemetry-sdk", "opentelemetry-proto",
             "opentelemetry-exporter-otlp-proto-common", "opentelemetry-instrumentation-openai-v2",
             "opentelemetry-util-genai", "openinference-instrumentation-openai",
             "openinference-semantic-conventions", "protobuf")


# ---------------------------------------------------------------------------- OTLP/JSON lines
def _hex_ids(value: Any) -> Any:
    """OTLP/JSON writes trace and span ids as hex; protobuf's JSON mapping writes bytes as base64."""
    import base64

    if isinstance(value, dict):
        return {k: (base64.b64decode(v).hex() if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str)
                    else _hex_ids(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_hex_ids(v) for v in value]
    return value


def _line(message: Any) -> str:
    from google.protobuf.json_format import MessageToDict

    return json.dumps(_hex_ids(MessageToDict(message, use_integers_for_enums=True)), separators=(",", ":"))


class _Lines:
    """An OTLP/JSON lines file, one export request per line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.write_text("")

    def write(self, message: Any) -> None:
        with open(self.path, "a") as f:
            f.write(_line(message) + "\n")


def _providers(spans_path: Path, logs_path: Path) -> Any:
    """Global tracer and logger providers that export every span / log record as a line."""
    from opentelemetry import _logs, trace
    from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
    try:
        from opentelemetry.sdk._logs.export import LogRecordExporter, LogRecordExportResult
    except ImportError:  # the SDK before 1.39 (the legacy producer's)
        from opentelemetry.sdk._logs.export import LogExporter as LogRecordExporter
        from opentelemetry.sdk._logs.export import LogExportResult as LogRecordExportResult
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

    span_lines, log_lines = _Lines(spans_path), _Lines(logs_path)

    class SpanLines(SpanExporter):
        def export(self, spans: Sequence[Any]) -> SpanExportResult:
            span_lines.write(encode_spans(spans))
            return SpanExportResult.SUCCESS

    class LogLines(LogRecordExporter):
        def export(self, batch: Sequence[Any]) -> LogRecordExportResult:
            log_lines.write(encode_logs(batch))
            return LogRecordExportResult.SUCCESS

        def shutdown(self) -> None:
            pass

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return True

    resource = Resource.create({"service.name": "trace-fixtures"})
    tracer_provider = TracerProvider(resource=resource)
    tracer_provider.add_span_processor(SimpleSpanProcessor(SpanLines()))
    trace.set_tracer_provider(tracer_provider)
    logger_provider = LoggerProvider(resource=resource)
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(LogLines()))
    _logs.set_logger_provider(logger_provider)
    try:  # the Events API the v1.30-era instrumentations emit through (deprecated later)
        from opentelemetry import _events
        from opentelemetry.sdk._events import EventLoggerProvider

        _events.set_event_logger_provider(EventLoggerProvider(logger_provider))
    except ImportError:
        pass
    return tracer_provider, logger_provider


# ---------------------------------------------------------------------------- ADK
ADK_RUNS = [["What is the weather in Paris?"], ["Convert 100 USD to EUR", "And the weather in London?"]]


def make_adk(out: Path) -> None:
    os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
    os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "SPAN_ONLY"
    tracer_provider, logger_provider = _providers(out / "adk.spans.jsonl", out / "adk.logs.jsonl")
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    sys.path.insert(0, str(ROOT))
    from samples.adk_agent.agent import root_agent

    async def run_all() -> None:
        sessions = InMemorySessionService()
        runner = Runner(app_name="weather_app", agent=root_agent, session_service=sessions)
        for i, turns in enumerate(ADK_RUNS):
            session = await sessions.create_session(app_name="weather_app", user_id="user", session_id=f"s{i}")
            for text in turns:
                msg = types.Content(role="user", parts=[types.Part(text=text)])
                async for _ in runner.run_async(user_id="user", session_id=session.id, new_message=msg):
                    pass

    asyncio.run(run_all())
    tracer_provider.shutdown()
    logger_provider.shutdown()


# ---------------------------------------------------------------------------- the OpenAI-client loop
WEATHER = {"paris": "sunny, 22 C", "tokyo": "rainy, 18 C", "london": "cloudy, 15 C"}
TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Current weather of a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
SYSTEM = "You are a weather assistant. Use get_weather for any question about the weather."
#: each run: (conversation id or None, the user turns)
LOOP_RUNS = [(None, ["What is the weather in Paris?"]),
             ("conv-trip", ["Is it raining in Tokyo?"]), ("conv-trip", ["And in London?"]),
             (None, ["Tell me a joke."])]


def _agent_reply(req: Any) -> Any:
    """The fake judge as the agent's model: a tool call for a city it knows, then the answer."""
    from agent_evaluators.testing.requests import Reply

    last = req.messages[-1]
    if last.get("role") == "tool":
        message: Dict[str, Any] = {"role": "assistant", "content": f"The weather there is {last['content']}."}
        finish = "stop"
    else:
        city = next((c for c in WEATHER if c in req.last_user_text.lower()), None)
        if city is None:
            message, finish = {"role": "assistant", "content": "I can only tell you about the weather."}, "stop"
        else:
            call_id = f"call_{city}_{len(req.messages)}"
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": call_id, "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": city.capitalize()})}}]}
            finish = "tool_calls"
    prompt = max(1, len(req.text) // 4)
    completion = max(1, len(json.dumps(message)) // 4)
    body = {"id": "chatcmpl-fixture", "object": "chat.completion", "created": 1700000000, "model": req.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}}
    return Reply(body=json.dumps(body), headers={"content-type": "application/json"})


def _loop(tool_span: Any, agent_span: Any) -> None:
    """Run LOOP_RUNS through an OpenAI client against the fake judge; the spans are the conventions'."""
    from openai import OpenAI

    from agent_evaluators.testing import JudgeServer

    with JudgeServer(_agent_reply) as server:
        client = OpenAI(base_url=server.url + "/v1", api_key="test-key")
        histories: Dict[str, List[Dict[str, Any]]] = {}
        for conv, turns in LOOP_RUNS:
            history = histories.setdefault(conv or f"run{len(histories)}", [{"role": "system", "content": SYSTEM}])
            for text in turns:
                history.append({"role": "user", "content": text})
                with agent_span(conv, text) as span:
                    while True:
                        reply = client.chat.completions.create(model="weather-model", messages=history, tools=TOOLS)
                        msg = reply.choices[0].message
                        history.append(msg.model_dump(exclude_none=True))
                        if not msg.tool_calls:
                            span.set_attribute("output.value", msg.content or "")
                            break
                        for call in msg.tool_calls:
                            args = json.loads(call.function.arguments)
                            with tool_span(call, args) as tspan:
                                result = WEATHER.get(args["city"].lower(), "unknown")
                                tspan.set_attribute("output.value", result)
                                tspan.set_attribute("gen_ai.tool.call.result", result)
                            history.append({"role": "tool", "tool_call_id": call.id, "content": result})


#: each variant's content capture: the legacy one (v1.28-1.30 events) needs the older instrumentation
_CAPTURE = {"attributes": "span_only", "events": "event_only", "legacy": "true"}


def make_openai_v2(out: Path, generation: str) -> None:
    os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = _CAPTURE[generation]
    if generation != "legacy":
        os.environ["OTEL_SEMCONV_STABILITY_OPT_IN"] = "gen_ai_latest_experimental"
    name = f"openai_v2_{generation}"
    tracer_provider, logger_provider = _providers(out / f"{name}.spans.jsonl", out / f"{name}.logs.jsonl")
    from opentelemetry import trace
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor

    OpenAIInstrumentor().instrument()
    tracer = trace.get_tracer("weather-agent")

    def agent_span(conv: Any, text: str) -> Any:
        attrs = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather_agent",
                 "gen_ai.tool.definitions": json.dumps(TOOLS)}
        if conv:
            attrs["gen_ai.conversation.id"] = conv
        return tracer.start_as_current_span("invoke_agent weather_agent", attributes=attrs)

    def tool_span(call: Any, args: Any) -> Any:
        return tracer.start_as_current_span(f"execute_tool {call.function.name}", attributes={
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": call.function.name,
            "gen_ai.tool.call.id": call.id, "gen_ai.tool.call.arguments": call.function.arguments,
            "gen_ai.tool.type": "function"})

    _loop(tool_span, agent_span)
    tracer_provider.shutdown()
    logger_provider.shutdown()


def make_openinference(out: Path) -> None:
    tracer_provider, logger_provider = _providers(out / "openinference.spans.jsonl", out / "openinference.logs.jsonl")
    from openinference.instrumentation.openai import OpenAIInstrumentor
    from opentelemetry import trace

    OpenAIInstrumentor().instrument(tracer_provider=tracer_provider)
    tracer = trace.get_tracer("weather-agent")

    def agent_span(conv: Any, text: str) -> Any:
        attrs = {"openinference.span.kind": "AGENT", "input.value": text, "agent.name": "weather_agent"}
        if conv:
            attrs["session.id"] = conv
        return tracer.start_as_current_span("weather_agent", attributes=attrs)

    def tool_span(call: Any, args: Any) -> Any:
        return tracer.start_as_current_span(call.function.name, attributes={
            "openinference.span.kind": "TOOL", "tool.name": call.function.name, "tool.id": call.id,
            "tool_call.id": call.id, "input.value": call.function.arguments, "input.mime_type": "application/json"})

    _loop(tool_span, agent_span)
    tracer_provider.shutdown()
    logger_provider.shutdown()


# ---------------------------------------------------------------------------- main
def _versions() -> Dict[str, str]:
    found = {}
    for dist in _VERSIONS:
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return found


def _drop_empty(out: Path) -> None:
    for path in out.glob("*.jsonl"):
        if not path.read_text().strip():
            path.unlink()


def main(argv: List[str]) -> int:
    out = FIXTURES
    if argv and argv[0] == "--versions":
        print(json.dumps(_versions()))
        return 0
    if argv and argv[0] == "--one":
        producer = argv[1]
        out.mkdir(parents=True, exist_ok=True)
        if producer == "adk":
            make_adk(out)
        elif producer.startswith("openai_v2_"):
            make_openai_v2(out, producer.rsplit("_", 1)[1])
        else:
            make_openinference(out)
        return 0
    legacy_python = argv[argv.index("--legacy-python") + 1] if "--legacy-python" in argv else sys.executable
    out.mkdir(parents=True, exist_ok=True)
    versions = {}
    for producer in PRODUCERS:
        python = legacy_python if producer == "openai_v2_legacy" else sys.executable
        subprocess.run([python, __file__, "--one", producer], check=True)
        found = subprocess.run([python, __file__, "--versions"], check=True, capture_output=True, text=True)
        versions[producer] = json.loads(found.stdout)
    _drop_empty(out)
    manifest = {"made_by": "tests/traces/make_trace_fixtures.py", "python": sys.version.split()[0],
                "versions": versions, "files": sorted(p.name for p in out.glob("*.jsonl"))}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
