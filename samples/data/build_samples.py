"""Writes the bundled sample datasets (run it after editing the scenarios below).

    python samples/data/build_samples.py

Three made-up agents, each recorded in the message format of the framework it
would run on, with good and bad runs side by side:

* a travel agent (OpenAI Chat Completions messages),
* a customer-support agent (Azure AI agent messages),
* a home-automation agent (Google ADK invocations).

Outputs (all in this folder):

* ``agents.jsonl``: one row per run, the same columns for every agent:
  ``id``, ``agent``, ``format``, ``label`` (``good`` / ``bad``), ``issue`` (what is
  wrong with a bad run), ``query``, ``response``, ``tool_definitions``,
  ``expected_tool_calls``, ``ground_truth``;
* ``home_automation.evalset.json`` + ``home_automation.actual.jsonl`` +
  ``test_config.json``: the home-automation runs as an ADK eval set, for
  ``agent-eval adk`` (see ``samples/cli.sh``).
"""

import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent

Call = Tuple[str, Dict[str, Any], Any]  # (tool name, arguments, tool result)


def tool(name: str, description: str, **params: Tuple[str, str]) -> Dict[str, Any]:
    """A tool definition; ``params`` maps an argument to (JSON type, description)."""
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": {k: {"type": t, "description": d} for k, (t, d) in params.items()},
            "required": list(params),
        },
    }


# ---------------------------------------------------------------------------- the agents
TRAVEL_SYSTEM = (
    "You are TripMate, a travel booking assistant. Always search before you book, book only what the "
    "user asked for, and confirm prices in the user's currency."
)
TRAVEL_TOOLS = [
    tool("search_flights", "Search flights between two airports on a date.",
         origin=("string", "IATA code"), destination=("string", "IATA code"), date=("string", "YYYY-MM-DD")),
    tool("book_flight", "Book a flight found by search_flights.", flight_id=("string", "id from search_flights")),
    tool("search_hotels", "Search hotels in a city for a stay.",
         city=("string", "city name"), check_in=("string", "YYYY-MM-DD"), nights=("integer", "number of nights")),
    tool("get_weather", "Weather forecast for a city and date.", city=("string", "city name"), date=("string", "YYYY-MM-DD")),
]

SUPPORT_SYSTEM = (
    "You are the support agent of Nordlicht Outdoor. Look up an order before you discuss it. Refunds over "
    "100 EUR need a ticket for a human agent; never promise them yourself."
)
SUPPORT_TOOLS = [
    tool("lookup_order", "Fetch an order by its number.", order_id=("string", "order number like NO-12345")),
    tool("track_shipment", "Tracking status of a shipment.", tracking_id=("string", "carrier tracking id")),
    tool("issue_refund", "Refund an order (up to 100 EUR).", order_id=("string", "order number"),
         amount_eur=("number", "amount to refund")),
    tool("create_ticket", "Hand the case to a human agent.", order_id=("string", "order number"),
         summary=("string", "what the customer needs")),
]

HOME_TOOLS = [
    tool("set_device_state", "Turn a device on or off.", device_id=("string", "device id"), state=("string", "on or off")),
    tool("set_thermostat", "Set a room's target temperature.", room=("string", "room name"),
         celsius=("number", "target temperature")),
    tool("get_device_info", "Current state of a device.", device_id=("string", "device id")),
    tool("lock_door", "Lock a door.", door_id=("string", "door id")),
]

# id, label, issue, user text, actual calls, actual final answer, expected calls, ground truth
Scenario = Tuple[str, str, str, str, List[Call], str, List[Tuple[str, Dict[str, Any]]], str]

TRAVEL: List[Scenario] = [
    ("travel-001", "good", "", "Find me a flight from Berlin to Lisbon on 2025-06-12 and book the cheapest one.",
     [("search_flights", {"origin": "BER", "destination": "LIS", "date": "2025-06-12"},
       [{"flight_id": "TP537", "price_eur": 142}, {"flight_id": "FR8812", "price_eur": 89}]),
      ("book_flight", {"flight_id": "FR8812"}, {"status": "confirmed", "booking_ref": "QX7P2M"})],
     "I booked Ryanair FR8812 from Berlin to Lisbon on 12 June 2025 for 89 EUR, the cheapest option. "
     "Your booking reference is QX7P2M.",
     [("search_flights", {"origin": "BER", "destination": "LIS", "date": "2025-06-12"}),
      ("book_flight", {"flight_id": "FR8812"})],
     "I booked FR8812 from Berlin to Lisbon on 12 June 2025 for 89 EUR, the cheapest option. "
     "Your booking reference is QX7P2M."),
    ("travel-002", "good", "", "What's the weather in Lisbon on 2025-06-13?",
     [("get_weather", {"city": "Lisbon", "date": "2025-06-13"}, {"forecast": "sunny", "high_c": 27, "low_c": 18})],
     "Lisbon on 13 June 2025 looks sunny, with a high of 27 C and a low of 18 C.",
     [("get_weather", {"city": "Lisbon", "date": "2025-06-13"})],
     "Lisbon on 13 June 2025 will be sunny with a high of 27 C and a low of 18 C."),
    ("travel-003", "good", "", "I need a hotel in Porto from 2025-06-14 for 3 nights.",
     [("search_hotels", {"city": "Porto", "check_in": "2025-06-14", "nights": 3},
       [{"hotel": "Casa do Rio", "price_eur_per_night": 110}, {"hotel": "Ribeira Loft", "price_eur_per_night": 95}])],
     "In Porto from 14 June 2025 for 3 nights I found Ribeira Loft at 95 EUR per night and Casa do Rio at "
     "110 EUR per night. Shall I book one?",
     [("search_hotels", {"city": "Porto", "check_in": "2025-06-14", "nights": 3})],
     "For 3 nights in Porto from 14 June 2025 there is Ribeira Loft at 95 EUR per night and Casa do Rio at "
     "110 EUR per night. Shall I book one?"),
    ("travel-004", "bad", "booked a flight without searching first, on the wrong date",
     "Book me the cheapest flight from Berlin to Lisbon on 2025-06-12.",
     [("book_flight", {"flight_id": "TP537"}, {"status": "confirmed", "booking_ref": "LM22QA", "date": "2025-06-21"})],
     "Done, you're booked on TP537.",
     [("search_flights", {"origin": "BER", "destination": "LIS", "date": "2025-06-12"}),
      ("book_flight", {"flight_id": "FR8812"})],
     "I booked FR8812 from Berlin to Lisbon on 12 June 2025 for 89 EUR, the cheapest option. "
     "Your booking reference is QX7P2M."),
]

SUPPORT: List[Scenario] = [
    ("support-001", "good", "", "Where is my order NO-48213?",
     [("lookup_order", {"order_id": "NO-48213"}, {"status": "shipped", "tracking_id": "DHL-88412", "total_eur": 64.9}),
      ("track_shipment", {"tracking_id": "DHL-88412"}, {"status": "out for delivery", "eta": "today by 18:00"})],
     "Your order NO-48213 has shipped and is out for delivery with DHL; it should arrive today by 18:00.",
     [("lookup_order", {"order_id": "NO-48213"}), ("track_shipment", {"tracking_id": "DHL-88412"})],
     "Order NO-48213 has shipped and is out for delivery with DHL; it should arrive today by 18:00."),
    ("support-002", "good", "", "The tent pegs from order NO-50877 arrived broken, can I get my 24 EUR back?",
     [("lookup_order", {"order_id": "NO-50877"}, {"status": "delivered", "items": ["tent pegs"], "total_eur": 24.0}),
      ("issue_refund", {"order_id": "NO-50877", "amount_eur": 24.0}, {"status": "refunded"})],
     "I'm sorry the tent pegs arrived broken. I refunded 24 EUR for order NO-50877; it will reach your "
     "account in 3 to 5 business days.",
     [("lookup_order", {"order_id": "NO-50877"}), ("issue_refund", {"order_id": "NO-50877", "amount_eur": 24.0})],
     "I refunded 24 EUR for order NO-50877; it will reach your account in 3 to 5 business days."),
    ("support-003", "good", "", "My backpack from order NO-51002 (349 EUR) is torn, I want a refund.",
     [("lookup_order", {"order_id": "NO-51002"}, {"status": "delivered", "items": ["backpack"], "total_eur": 349.0}),
      ("create_ticket", {"order_id": "NO-51002", "summary": "Torn backpack, customer asks for a 349 EUR refund"},
       {"ticket_id": "T-7731"})],
     "I'm sorry about the torn backpack. Refunds of this size are handled by a colleague: I opened ticket "
     "T-7731 for order NO-51002 and you will hear back within one business day.",
     [("lookup_order", {"order_id": "NO-51002"}),
      ("create_ticket", {"order_id": "NO-51002", "summary": "Torn backpack, customer asks for a 349 EUR refund"})],
     "I opened ticket T-7731 for order NO-51002 so a colleague can handle the refund; you will hear back "
     "within one business day."),
    ("support-004", "bad", "refunded 349 EUR itself without looking up the order or opening a ticket",
     "Refund order NO-51002 please, the backpack is torn. It was 349 EUR.",
     [("issue_refund", {"order_id": "NO-51002", "amount_eur": 349.0}, {"status": "error", "reason": "over limit"})],
     "No problem, your refund of 349 EUR is on its way!",
     [("lookup_order", {"order_id": "NO-51002"}),
      ("create_ticket", {"order_id": "NO-51002", "summary": "Torn backpack, customer asks for a 349 EUR refund"})],
     "I opened ticket T-7731 for order NO-51002 so a colleague can handle the refund; you will hear back "
     "within one business day."),
]

HOME: List[Scenario] = [
    ("home-001", "good", "", "Turn off the living room lamp.",
     [("set_device_state", {"device_id": "lamp.living_room", "state": "off"}, {"ok": True})],
     "The living room lamp is now off.",
     [("set_device_state", {"device_id": "lamp.living_room", "state": "off"})],
     "The living room lamp is now off."),
    ("home-002", "good", "", "Set the bedroom to 19 degrees and lock the front door.",
     [("set_thermostat", {"room": "bedroom", "celsius": 19}, {"ok": True}),
      ("lock_door", {"door_id": "door.front"}, {"ok": True, "locked": True})],
     "The bedroom is set to 19 C and the front door is locked.",
     [("set_thermostat", {"room": "bedroom", "celsius": 19}), ("lock_door", {"door_id": "door.front"})],
     "The bedroom is set to 19 C and the front door is locked."),
    ("home-003", "good", "", "Is the garage heater on?",
     [("get_device_info", {"device_id": "heater.garage"}, {"state": "on", "power_w": 1500})],
     "Yes, the garage heater is on and drawing about 1500 W.",
     [("get_device_info", {"device_id": "heater.garage"})],
     "Yes, the garage heater is on, drawing about 1500 W."),
    ("home-004", "bad", "switched off the kitchen lamp instead of the living room lamp",
     "Turn off the living room lamp.",
     [("set_device_state", {"device_id": "lamp.kitchen", "state": "off"}, {"ok": True})],
     "Okay, I turned the kitchen lamp off for you.",
     [("set_device_state", {"device_id": "lamp.living_room", "state": "off"})],
     "The living room lamp is now off."),
]


# ---------------------------------------------------------------------------- formats
def openai_messages(system: str, user: str, calls: List[Call], answer: str) -> Tuple[List[Any], List[Any]]:
    """(query, response) as OpenAI Chat Completions messages."""
    query = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    response: List[Any] = []
    if calls:
        response.append({
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": f"call_{i}", "type": "function",
                 "function": {"name": n, "arguments": json.dumps(a)}}
                for i, (n, a, _) in enumerate(calls)
            ],
        })
        for i, (_, _, result) in enumerate(calls):
            response.append({"role": "tool", "tool_call_id": f"call_{i}", "content": json.dumps(result)})
    response.append({"role": "assistant", "content": answer})
    return query, response


def azure_agent_messages(system: str, user: str, calls: List[Call], answer: str) -> Tuple[List[Any], List[Any]]:
    """(query, response) as Azure AI agent messages (content items)."""
    query = [
        {"role": "system", "content": system},
        {"role": "user", "content": [{"type": "text", "text": user}]},
    ]
    response: List[Any] = []
    for i, (name, args, result) in enumerate(calls):
        call_id = f"call_{name}_{i}"
        response.append({"role": "assistant", "content": [
            {"type": "tool_call", "tool_call_id": call_id, "name": name, "arguments": args}]})
        response.append({"role": "tool", "tool_call_id": call_id, "content": [
            {"type": "tool_result", "tool_result": result}]})
    response.append({"role": "assistant", "content": [{"type": "text", "text": answer}]})
    return query, response


def adk_invocation(inv_id: str, user: str, calls: List[Tuple[str, Dict[str, Any], Optional[Any]]],
                   answer: str) -> Dict[str, Any]:
    """One ADK ``Invocation`` as the eval-set JSON spells it."""
    return {
        "invocation_id": inv_id,
        "user_content": {"role": "user", "parts": [{"text": user}]},
        "final_response": {"role": "model", "parts": [{"text": answer}]},
        "intermediate_data": {
            "tool_uses": [{"id": f"{inv_id}-t{i}", "name": n, "args": a} for i, (n, a, _) in enumerate(calls)],
            "tool_responses": [
                {"id": f"{inv_id}-t{i}", "name": n, "response": {"result": res}}
                for i, (n, _, res) in enumerate(calls) if res is not None
            ],
            "intermediate_responses": [],
        },
    }


def expected(calls: List[Tuple[str, Dict[str, Any]]]) -> List[Dict[str, Any]]:
    return [{"name": n, "arguments": a} for n, a in calls]


def rows() -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    for sid, label, issue, user, calls, answer, exp, truth in TRAVEL:
        q, r = openai_messages(TRAVEL_SYSTEM, user, calls, answer)
        out.append(_row(sid, "travel", "openai", label, issue, q, r, TRAVEL_TOOLS, exp, truth))
    for sid, label, issue, user, calls, answer, exp, truth in SUPPORT:
        q, r = azure_agent_messages(SUPPORT_SYSTEM, user, calls, answer)
        out.append(_row(sid, "customer_support", "azure_agent", label, issue, q, r, SUPPORT_TOOLS, exp, truth))
    for sid, label, issue, user, calls, answer, exp, truth in HOME:
        inv = adk_invocation(f"{sid}-inv-1", user, calls, answer)
        out.append(_row(sid, "home_automation", "adk", label, issue, user, [inv], HOME_TOOLS, exp, truth))
    return out


def _row(sid: str, agent: str, fmt: str, label: str, issue: str, query: Any, response: Any,
         tools: List[Any], exp: List[Tuple[str, Dict[str, Any]]], truth: str) -> Dict[str, Any]:
    return {"id": sid, "agent": agent, "format": fmt, "label": label, "issue": issue, "query": query,
            "response": response, "tool_definitions": tools, "expected_tool_calls": expected(exp),
            "ground_truth": truth}


def adk_files() -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
    """The home-automation scenarios as an ADK eval set (expected) and actual invocations (JSONL lines)."""
    cases, actual = [], []
    for sid, _label, _issue, user, calls, answer, exp, truth in HOME:
        cases.append({
            "eval_id": sid,
            "conversation": [adk_invocation(f"{sid}-inv-1", user, [(n, a, None) for n, a in exp], truth)],
            "session_input": {"app_name": "home_automation_agent", "user_id": "sample-user", "state": {}},
        })
        actual.append({"eval_id": sid, "invocations": [adk_invocation(f"{sid}-inv-1", user, calls, answer)]})
    eval_set = {"eval_set_id": "home_automation_samples", "name": "Home automation samples",
                "description": "Made-up home-automation runs (see samples/data/build_samples.py).",
                "eval_cases": cases}
    return eval_set, actual


def main() -> None:
    with open(HERE / "agents.jsonl", "w", encoding="utf-8") as f:
        for row in rows():
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    eval_set, actual = adk_files()
    (HERE / "home_automation.evalset.json").write_text(json.dumps(eval_set, indent=2) + "\n", encoding="utf-8")
    with open(HERE / "home_automation.actual.jsonl", "w", encoding="utf-8") as f:
        for line in actual:
            f.write(json.dumps(line) + "\n")
    config = {"criteria": {"tool_trajectory_avg_score": 1.0, "response_match_score": 0.5}}
    (HERE / "test_config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
