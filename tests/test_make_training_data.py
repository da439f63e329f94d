"""scripts/make_training_data.sh: a wrong seed count for "fresh" is refused before any set is drawn."""

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
