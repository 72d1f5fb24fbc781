"""Reading a run's run_report.json (schema in docs/run-report.md), for the validation tools."""

import json
from typing import Dict


class RunError(Exception):
    """A run, or a file it should have written, failed (exit code 1)."""


def load_completed(path: str) -> Dict:
    """The parsed report of a run that completed; RunError if it cannot be read or says failed."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        raise RunError(f"cannot read run report '{path}': {e}") from None
    if report.get("status") != "completed":
        raise RunError(f"run report '{path}' says status '{report.get('status')}': "
                       f"{report.get('error', '')}")
    return report
