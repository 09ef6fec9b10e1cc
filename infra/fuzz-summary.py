"""What one schemathesis run did, per phase, from its NDJSON report (infra/fuzz.sh prints it).

One line per phase that ran: the operations it tested, the requests it sent and its failures
(distinct operation and check pairs that failed, as schemathesis counts unique failures).
Run with the schemathesis venv's python; only the standard library is used.
"""
import json
import sys

PHASES = ("examples", "coverage", "fuzzing", "stateful")


def main(path: str) -> None:
    operations = {phase: set() for phase in PHASES}
    requests = dict.fromkeys(PHASES, 0)
    failures = {phase: set() for phase in PHASES}
    with open(path, encoding="utf-8") as report:
        for line in report:
            event = json.loads(line)
            scenario = event.get("ScenarioFinished")
            if scenario is None or scenario.get("phase") not in operations:
                continue
            phase = scenario["phase"]
            recorder = scenario["recorder"]
            if scenario["status"] == "skip":
                continue
            interactions = recorder.get("interactions", {})
            requests[phase] += len(interactions)
            # A stateful scenario is labelled "Stateful tests": count the operations it called.
            for interaction in interactions.values():
                request = interaction.get("request") or {}
                operations[phase].add(recorder["label"] if phase != "stateful" else f"{request.get('method')} {request.get('uri', '').split('?')[0]}")
            for checks in recorder.get("checks", {}).values():
                for check in checks:
                    if check["status"] == "failure":
                        info = check.get("failure_info", {}).get("failure", {})
                        failures[phase].add((info.get("operation", recorder["label"]), check["name"]))
    for phase in PHASES:
        if requests[phase] == 0 and not failures[phase]:
            print(f"{phase}: skipped (no cases)")
            continue
        what = "calls" if phase == "stateful" else "operations"
        print(f"{phase}: {len(operations[phase])} {what}, {requests[phase]} requests, {len(failures[phase])} failures")
        for operation, check in sorted(failures[phase]):
            print(f"  failed: {operation}: {check}")


if __name__ == "__main__":
    main(sys.argv[1])
