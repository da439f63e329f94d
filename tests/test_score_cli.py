"""``cribcam score``: the table, JSON, and one-line errors with exit code 2."""

import json

import pytest

from cribcam.cli import main


def test_score_json(capsys):
    assert main(["score", "5H", "5C", "5S", "JD", "--starter", "5D", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 29
    assert {"kind": "nobs", "cards": ["JD"], "points": 1} in data["items"]
    assert data["spoken"].startswith("Fifteen two")


def test_score_table_and_spoken(capsys):
    assert main(["score", "5h,", "10c", "6s", "6d", "--starter", "qc"]) == 0
    out = capsys.readouterr().out
    assert "total" in out and "Fifteen two, fifteen four, and a pair is six." in out


def test_crib_flag(capsys):
    main(["score", "2H", "4H", "6H", "8H", "--starter", "KC", "--crib", "--json"])
    assert json.loads(capsys.readouterr().out)["total"] == 0


@pytest.mark.parametrize(
    "argv", [["5H", "5C", "5S", "5X", "--starter", "5D"], ["5H", "5C", "5S", "5D", "--starter", "5D"]]
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    assert main(["score", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
