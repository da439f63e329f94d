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


def test_five_cards_without_starter_take_the_fifth_as_starter_like_the_app(capsys):
    # The Count page's typed box reads "5H 5C 5S JD 5D" as four cards and the starter last: 29 with nobs.
    assert main(["score", "5H", "5C", "5S", "JD", "5D", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 29 and data["starter"] == "5D" and data["hand"] == ["5H", "5C", "5S", "JD"]


def test_five_cards_without_starter_say_which_card_is_the_starter(capsys):
    assert main(["score", "5H", "5C", "5S", "JD", "5D"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "hand 5H 5C 5S JD, starter 5D (the fifth card; use --starter to name another)"


def test_help_says_the_fifth_card_is_the_starter(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "five cards without --starter are four and the starter last" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["5H", "5C", "5S", "JD"], "Give four cards and --starter, or five cards with the starter last; got 4."),
        (["5H", "5C", "5S", "JD", "2C", "--starter", "5D"], "With --starter give the four cards in hand; got 5."),
        (["5H 6H 7H 8H 9H 10H"], "A hand with its starter can have at most 5 cards; this one has 6."),
    ],
)
def test_the_wrong_number_of_cards_is_one_sentence(capsys, argv, said):
    assert main(["score", *argv]) == 2
    assert capsys.readouterr().err == f"cribcam score: {said}\n"
