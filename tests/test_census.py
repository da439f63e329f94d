"""The census against the published tables: every hand with every starter."""

import json

from cribcam.cli import main
from scorer import census

PUBLISHED_HAND = {
    0: 1009008,
    1: 99792,
    2: 2813796,
    3: 505008,
    4: 2855676,
    5: 697508,
    6: 1800268,
    7: 751324,
    8: 1137236,
    9: 361224,
    10: 388740,
    11: 51680,
    12: 317340,
    13: 19656,
    14: 90100,
    15: 9168,
    16: 58248,
    17: 11196,
    18: 2708,
    19: 0,
    20: 8068,
    21: 2496,
    22: 444,
    23: 356,
    24: 3680,
    25: 0,
    26: 0,
    27: 0,
    28: 76,
    29: 4,
}


def test_hand_census_equals_published_table():
    result = census("hand")
    assert dict(enumerate(result.histogram)) == PUBLISHED_HAND
    assert result.total == 12_994_800
    assert result.mean.numerator == 60759 and result.mean.denominator == 12740


def test_crib_census_differs_only_by_four_card_flushes():
    result = census("crib")
    assert result.total == 12_994_800
    assert result.histogram[0] == 1_022_208
    assert result.points == 61_528_020
    assert round(float(result.mean), 6) == 4.734819


def test_census_cli_json(capsys):
    assert main(["census", "--rules", "crib", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "crib" and data["total"] == 12_994_800
    assert data["histogram"]["0"] == 1_022_208
    assert data["mean"] == 4.734819
