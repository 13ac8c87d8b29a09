"""Long customer-service agent conversations, the shape of real ones, made from a seed.

What real agent runs look like and the bundled samples do not: a policy-sized system prompt
(several thousand characters), 14 tool definitions with JSON-schema parameters, 5-15 user turns,
about 6 tool calls per conversation, and tool results of several kilobytes of JSON. Each row is
in azure's agent message format (which both this package and azure-ai-evaluation 1.18 read):
``query`` holds the system prompt and every turn up to the last user message, ``response`` the
agent's last turn, ``tool_definitions`` the 14 tools. About a quarter of the conversations end
in a hand-off to a human (``transfer_to_human_agents``), as real support runs do.

    PYTHONPATH=. python bench/long_conversations.py --rows 20 --seed 7 > rows.jsonl
"""

import argparse
import json
import random
import sys
from typing import Any, Dict, List

POLICY_RULES = [
    "Before taking any action that updates the booking database (booking, modifying flights, editing baggage, "
    "upgrading cabin class, cancelling, or updating passenger information), you must list the action details "
    "and obtain explicit user confirmation (yes) to proceed.",
    "You should not provide any information, knowledge, or procedures not provided by the user or available "
    "tools, or give subjective recommendations or comments.",
    "You should only make one tool call at a time, and if you make a tool call, you should not respond to the "
    "user simultaneously. If you respond to the user, you should not make a tool call at the same time.",
    "You should deny user requests that are against this policy.",
    "You should transfer the user to a human agent if and only if the request cannot be handled within the "
    "scope of your actions. To transfer, first make a tool call to transfer_to_human_agents, and then send the "
    "message 'YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.' to the user.",
    "The agent must first obtain the user id, then ask for the trip type, origin, destination. Cabin: "
    "basic economy, economy, business. Basic economy flights cannot be modified; other reservations can be "
    "modified without changing the origin, destination and trip type.",
    "Each reservation can use at most one travel certificate, at most one credit card, and at most three gift "
    "cards. The remaining amount of a travel certificate is not refundable. All payment methods must already "
    "be in the user profile for safety reasons.",
    "If the booking user is a regular member, 0 free checked bag for each basic economy passenger, 1 free "
    "checked bag for each economy passenger, and 2 free checked bags for each business passenger. If the "
    "booking user is a silver member, 1, 2 and 3 respectively; gold members 2, 3 and 3. Each extra baggage is "
    "50 dollars. Do not add checked bags that the user does not need.",
    "Travel insurance: the agent should ask if the user wants to buy the travel insurance, which is 30 dollars "
    "per passenger and enables full refund if the user needs to cancel the flight given health or weather "
    "reasons.",
    "The user can always cancel a reservation within 24 hours of booking, or if the airline cancelled the "
    "flight. Otherwise, basic economy or economy flights can be cancelled only if travel insurance is bought "
    "and the condition is met, and business flights can always be cancelled. The rules are strict regardless "
    "of the membership status. The API does not check these for the agent, so the agent must make sure the "
    "rules apply before calling the API!",
    "Refund: the refund will go to the original payment methods within 5 to 7 business days. If the user is "
    "silver/gold member or has travel insurance or flies business, and complains about cancelled flights in a "
    "reservation, the agent can offer a certificate as a gesture after confirming the facts, with the amount "
    "being 100 dollars times the number of passengers.",
    "Do not proactively offer compensation unless the user explicitly asks for one. Do not compensate if the "
    "user is a regular member and has no travel insurance and flies (basic) economy.",
]

TOOLS = [
    ("get_user_details", "Get the details of a user, including their reservations.",
     {"user_id": "The user id, such as 'sara_doe_496'."}),
    ("get_reservation_details", "Get the details of a reservation.", {"reservation_id": "The reservation id, such as '8JX2WO'."}),
    ("search_direct_flight", "Search direct flights between two cities on a specific date.",
     {"origin": "IATA code of the origin city, such as 'JFK'.", "destination": "IATA code of the destination.",
      "date": "The date of the flight in the format 'YYYY-MM-DD'."}),
    ("search_onestop_flight", "Search one-stop flights between two cities on a specific date.",
     {"origin": "IATA code of the origin.", "destination": "IATA code of the destination.", "date": "'YYYY-MM-DD'."}),
    ("book_reservation", "Book a reservation.",
     {"user_id": "The user id.", "origin": "IATA origin.", "destination": "IATA destination.",
      "flight_type": "one_way or round_trip.", "cabin": "basic_economy, economy or business.",
      "flights": "The flight numbers and dates.", "passengers": "Passenger names and dates of birth.",
      "payment_methods": "Payment method ids and amounts.", "total_baggages": "Total bags.",
      "nonfree_baggages": "Paid bags.", "insurance": "yes or no."}),
    ("cancel_reservation", "Cancel the whole reservation.", {"reservation_id": "The reservation id."}),
    ("update_reservation_flights", "Update the flight information of a reservation.",
     {"reservation_id": "The reservation id.", "cabin": "The cabin class.", "flights": "All flight segments.",
      "payment_id": "The payment method id for the price difference."}),
    ("update_reservation_baggages", "Update the baggage information of a reservation.",
     {"reservation_id": "The reservation id.", "total_baggages": "Updated total bags.",
      "nonfree_baggages": "Updated paid bags.", "payment_id": "The payment method id."}),
    ("update_reservation_passengers", "Update the passenger information of a reservation.",
     {"reservation_id": "The reservation id.", "passengers": "The updated passenger list."}),
    ("send_certificate", "Send a certificate to a user. Be careful!",
     {"user_id": "The user id.", "amount": "Certificate amount in dollars."}),
    ("list_all_airports", "List all airports and their cities.", {}),
    ("calculate", "Calculate the result of a mathematical expression.", {"expression": "The expression, such as '2 * 3 + 4'."}),
    ("think", "Use the tool to think about something. It will not obtain new information.",
     {"thought": "A thought to think about."}),
    ("transfer_to_human_agents", "Transfer the user to a human agent, with a summary of the user's issue. "
     "Only transfer if the user explicitly asks for a human agent, or the issue cannot be resolved with the tools.",
     {"summary": "A summary of the user's issue."}),
]

CITIES = ["JFK", "LAX", "SFO", "ORD", "DFW", "SEA", "BOS", "MIA", "ATL", "DEN", "PHX", "LAS", "MSP", "DTW"]
NAMES = ["Sara Doe", "Mei Kovacs", "Omar Rossi", "Lucas Brown", "Ivan Santos", "Aarav Ahmed", "Yara Nguyen"]
REQUESTS = [
    ("Hi, I'd like to change my upcoming flight to a later date, reservation {res}.", "get_reservation_details"),
    ("Can you check what flights go from {a} to {b} on {date}?", "search_direct_flight"),
    ("I want to add two checked bags to reservation {res}.", "update_reservation_baggages"),
    ("My user id is {uid}. What reservations do I have?", "get_user_details"),
    ("Please cancel reservation {res}, I can't travel anymore.", "get_reservation_details"),
    ("Are there one-stop options from {a} to {b} on {date}? Direct ones are too expensive.", "search_onestop_flight"),
    ("How much would it be in total for 3 bags at 50 each plus the 30 dollar insurance?", "calculate"),
    ("I need to update the passenger name on {res}, it's misspelled.", "update_reservation_passengers"),
]
CHATTER = ["Yes, please go ahead.", "Hmm, let me think. What are my options?", "OK, and what about the baggage?",
           "Thanks. One more thing.", "No, that's not what I asked. Please check again.",
           "Fine. Can you also confirm the payment method on file?"]


def _definitions() -> List[Dict[str, Any]]:
    return [{"name": n, "description": d, "parameters": {
        "type": "object",
        "properties": {p: {"type": "string", "description": t} for p, t in params.items()},
        "required": list(params)}} for n, d, params in TOOLS]


def _flight(rng: random.Random, a: str, b: str, date: str) -> Dict[str, Any]:
    return {"flight_number": f"HAT{rng.randint(100, 299)}", "origin": a, "destination": b, "status": "available",
            "scheduled_departure_time_est": f"{rng.randint(5, 22):02d}:00:00",
            "scheduled_arrival_time_est": f"{rng.randint(5, 23):02d}:30:00", "date": date,
            "available_seats": {"basic_economy": rng.randint(0, 20), "economy": rng.randint(0, 20),
                                "business": rng.randint(0, 20)},
            "prices": {"basic_economy": rng.randint(50, 100), "economy": rng.randint(100, 200),
                       "business": rng.randint(200, 500)}}


def _result(rng: random.Random, tool: str, ctx: Dict[str, str]) -> Any:
    """A tool result of several KB of JSON, as airline tools return."""
    if tool in ("search_direct_flight", "search_onestop_flight"):
        return [_flight(rng, ctx["a"], ctx["b"], ctx["date"]) for _ in range(rng.randint(6, 12))]
    if tool in ("get_user_details",):
        return {"user_id": ctx["uid"], "name": {"first_name": ctx["name"].split()[0], "last_name": ctx["name"].split()[1]},
                "address": {"address1": f"{rng.randint(10, 999)} Elm Street", "city": "Springfield", "country": "USA",
                            "state": "IL", "zip": f"{rng.randint(10000, 99999)}"},
                "email": f"{ctx['uid']}@example.com", "dob": "1990-04-05",
                "membership": rng.choice(["regular", "silver", "gold"]),
                "payment_methods": {f"credit_card_{rng.randint(1000000, 9999999)}": {"source": "credit_card", "brand": "visa",
                                                                                    "last_four": f"{rng.randint(1000, 9999)}"}
                                    for _ in range(3)},
                "saved_passengers": [{"first_name": n.split()[0], "last_name": n.split()[1], "dob": "1985-01-01"}
                                     for n in rng.sample(NAMES, 3)],
                "reservations": [ctx["res"]] + ["".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(6))
                                                for _ in range(rng.randint(3, 8))]}
    if tool == "calculate":
        return "120.0"
    if tool == "think":
        return ""
    if tool == "transfer_to_human_agents":
        return "Transfer successful"
    return {"reservation_id": ctx["res"], "user_id": ctx["uid"], "origin": ctx["a"], "destination": ctx["b"],
            "flight_type": "round_trip", "cabin": rng.choice(["economy", "business", "basic_economy"]),
            "flights": [_flight(rng, ctx["a"], ctx["b"], ctx["date"]) for _ in range(rng.randint(3, 6))],
            "passengers": [{"first_name": n.split()[0], "last_name": n.split()[1], "dob": "1985-01-01"}
                           for n in rng.sample(NAMES, 2)],
            "payment_history": [{"payment_id": f"credit_card_{rng.randint(1000000, 9999999)}", "amount": rng.randint(100, 900)}],
            "created_at": "2024-05-01T10:12:00", "total_baggages": rng.randint(0, 3), "nonfree_baggages": 0,
            "insurance": rng.choice(["yes", "no"])}


def _arguments(tool: str, ctx: Dict[str, str]) -> Dict[str, Any]:
    args = {"user_id": ctx["uid"], "reservation_id": ctx["res"], "origin": ctx["a"], "destination": ctx["b"],
            "date": ctx["date"], "expression": "3 * 50 + 30", "thought": "Check the baggage allowance first.",
            "summary": f"User {ctx['uid']} wants a change the policy does not allow on {ctx['res']}.",
            "total_baggages": "3", "nonfree_baggages": "1", "payment_id": "credit_card_4421",
            "passengers": [{"first_name": "Sara", "last_name": "Doe", "dob": "1990-04-05"}]}
    params = next(p for n, _, p in TOOLS if n == tool)
    return {p: args.get(p, "x") for p in params}


def _call(rng: random.Random, tool: str, ctx: Dict[str, str], n: int) -> List[Dict[str, Any]]:
    cid = f"call_{tool}_{n}"
    return [{"role": "assistant", "content": [{"type": "tool_call", "tool_call_id": cid, "name": tool,
                                               "arguments": _arguments(tool, ctx)}]},
            {"role": "tool", "tool_call_id": cid, "content": [{"type": "tool_result", "tool_result": _result(rng, tool, ctx)}]}]


def _text(role: str, text: str) -> Dict[str, Any]:
    return {"role": role, "content": [{"type": "text", "text": text}]}


def conversation(rng: random.Random, index: int) -> Dict[str, Any]:
    """One row: ``query`` (system prompt and turns up to the last user message), ``response``
    (the agent's last turn), ``tool_definitions``; ``handoff`` when it ends in a transfer."""
    name = rng.choice(NAMES)
    ctx = {"uid": name.lower().replace(" ", "_") + f"_{rng.randint(100, 999)}",
           "res": "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(6)),
           "a": rng.choice(CITIES), "b": rng.choice(CITIES), "date": f"2024-05-{rng.randint(10, 28)}", "name": name}
    system = ("# Airline Agent Policy\n\nThe current time is 2024-05-15 15:00:00 EST.\n\nAs an airline agent, you can "
              "help users book, modify, or cancel flight reservations.\n\n" + "\n\n".join(f"- {r}" for r in POLICY_RULES))
    turns = rng.randint(5, 15)
    calls = max(turns // 2, rng.randint(4, 8))
    call_turns = sorted(rng.sample(range(turns), min(calls, turns)))
    handoff = rng.random() < 0.3
    messages: List[Dict[str, Any]] = [{"role": "system", "content": system}]
    n = 0
    last: List[Dict[str, Any]] = []
    for t in range(turns):
        request, tool = rng.choice(REQUESTS) if t == 0 or rng.random() < 0.5 else (rng.choice(CHATTER), "think")
        user = _text("user", request.format(**ctx))
        agent: List[Dict[str, Any]] = []
        if t in call_turns:
            agent += _call(rng, tool, ctx, n)
            n += 1
            if rng.random() < 0.3:
                agent += _call(rng, rng.choice(["get_user_details", "get_reservation_details", "calculate"]), ctx, n)
                n += 1
        if t == turns - 1 and handoff:
            agent += _call(rng, "transfer_to_human_agents", ctx, n)[:1]
        else:
            agent.append(_text("assistant", f"I checked that for you. For reservation {ctx['res']} ({ctx['a']} to "
                                            f"{ctx['b']}, {ctx['date']}) the details are as listed; shall I proceed?"))
        if t < turns - 1:
            messages += [user] + agent
        else:
            messages.append(user)
            last = agent
    return {"id": f"long-{index:03d}", "format": "azure_agent", "handoff": handoff, "query": messages,
            "response": last, "tool_definitions": _definitions()}


def rows(n: int = 20, seed: int = 7) -> List[Dict[str, Any]]:
    """``n`` conversations, the same for the same seed."""
    rng = random.Random(seed)
    return [conversation(rng, i) for i in range(n)]


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    for row in rows(args.rows, args.seed):
        sys.stdout.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
