"""Numbers as players say them."""

_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
_TENS = {
    20: "twenty",
    30: "thirty",
    40: "forty",
    50: "fifty",
    60: "sixty",
    70: "seventy",
    80: "eighty",
    90: "ninety",
}


def number_word(n: int) -> str:
    """``number_word(24) == 'twenty-four'`` (0 to 120; larger numbers as digits)."""
    if 0 <= n <= 20:
        return _WORDS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens * 10] + ("" if ones == 0 else f"-{_WORDS[ones]}")
    if n < 121:
        rest = n - 100
        return "one hundred" + ("" if rest == 0 else f" and {number_word(rest)}")
    return str(n)
