"""scripts/make_training_data.sh: a wrong seed count for "fresh", or a STYLED that is not a deck count, is refused
before any set is drawn."""

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_fresh_with_one_seed_gets_one_sentence_and_draws_nothing(tmp_path):
    result = subprocess.run(
        ["bash", str(REPO / "scripts" / "make_training_data.sh"), "fresh", "36"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert result.stderr == "fresh takes no seeds or two (fresh 36 37), not 1.\n" and result.stdout == ""


def test_styled_that_is_not_a_deck_count_gets_one_sentence_and_draws_nothing(tmp_path):
    for styled in ("twelve", "0", "12; rm -rf x", "-3"):
        result = subprocess.run(
            ["bash", str(REPO / "scripts" / "make_training_data.sh"), "fresh", "36", "37"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
            env={**os.environ, "STYLED": styled, "FRESH_ONLY": "1"},
        )
        assert result.returncode == 2
        assert result.stderr == f"STYLED takes a number of styled decks from 1 to 999, not '{styled}'.\n"
        assert result.stdout == ""
