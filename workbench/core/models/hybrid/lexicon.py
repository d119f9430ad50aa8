"""OpenVault's word lists and the script tables its tokenizer consults, written as data.

Sources (vadash/openvault, REFERENCE.md §3):
- `STOP_WORDS`: the 109 English words and the NLTK Russian list (151 words) of
  `src/retrieval/math.js`. They are checked against lower-cased words BEFORE stemming.
- `LATIN_STARTERS`, `CYRILLIC_STARTERS`: the sentence starters `src/retrieval/query-context.js`
  never takes for an entity (exact, case-sensitive comparison). The lists are those of the
  newest stored version of that file that still extracts entities by regular expression; every
  golden case of `specs/examples/openvault.jsonl` agrees with them.
- `LATIN_RANGES`, `CYRILLIC_RANGES`: the Unicode `Script=Latin` and `Script=Cyrillic` code
  point ranges, which the original tests with `/\\p{Script=…}/u` to pick a stemmer. Python's `re`
  has no script property, so the ranges are data (Unicode 17, as the `regex` package has them).
"""

from __future__ import annotations

import re

ENGLISH_STOP_WORDS = frozenset("""
the and is a an in to of for with on at from by as it this that are was were be been being
have has had do does did will would could should may might must shall can or but not no yes so
if then than when what which who whom whose where why how all each every both few more most
other some such only own same just also now here there about into through during before after
above below up down out off over under again further once he she they we you i me him her them
us my your his its our their
""".split())

RUSSIAN_STOP_WORDS = frozenset("""
и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне
было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него
до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для
мы тебя их чем была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того
потому этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем
всех никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего
них какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя
такой им более всегда конечно всю между
""".split())

STOP_WORDS = ENGLISH_STOP_WORDS | RUSSIAN_STOP_WORDS

LATIN_STARTERS = frozenset("""
The This That Then There These Those When Where What Which While Who Why How Here Now Just But
And Yet Still Also Only Even Well Much Very Some
""".split())

CYRILLIC_STARTERS = frozenset("""
После Когда Потом Затем Тогда Здесь Там Это Эта Этот Эти Что Как Где Куда Почему Зачем Кто Чей
Какой Какая Какое Пока Если Хотя Также Ещё Уже Вот Вон
""".split())

LATIN_RANGES: tuple[tuple[int, int], ...] = (
    (0x0041, 0x005A), (0x0061, 0x007A), (0x00AA, 0x00AA), (0x00BA, 0x00BA), (0x00C0, 0x00D6),
    (0x00D8, 0x00F6), (0x00F8, 0x02B8), (0x02E0, 0x02E4), (0x1D00, 0x1D25), (0x1D2C, 0x1D5C),
    (0x1D62, 0x1D65), (0x1D6B, 0x1D77), (0x1D79, 0x1DBE), (0x1E00, 0x1EFF), (0x2071, 0x2071),
    (0x207F, 0x207F), (0x2090, 0x209F), (0x212A, 0x212B), (0x2132, 0x2132), (0x214E, 0x214E),
    (0x2160, 0x2188), (0x2C60, 0x2C7F), (0xA722, 0xA787), (0xA78B, 0xA7DD), (0xA7E2, 0xA7E2),
    (0xA7F1, 0xA7FF), (0xAB30, 0xAB5A), (0xAB5C, 0xAB64), (0xAB66, 0xAB69), (0xAB6C, 0xAB6D),
    (0xFB00, 0xFB06), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A), (0x10780, 0x10785),
    (0x10787, 0x107B0), (0x107B2, 0x107BF), (0x1DF00, 0x1DF81), (0x1DF90, 0x1DF96),
    (0x1DFCD, 0x1DFF2), (0x1DFF5, 0x1DFFF),
)

CYRILLIC_RANGES: tuple[tuple[int, int], ...] = (
    (0x0400, 0x0484), (0x0487, 0x052F), (0x1C80, 0x1C8A), (0x1D2B, 0x1D2B), (0x1D78, 0x1D78),
    (0x2DE0, 0x2DFF), (0xA640, 0xA69F), (0xFE2E, 0xFE2F), (0x1E030, 0x1E06D),
    (0x1E08F, 0x1E08F),
)


def script_pattern(ranges: tuple[tuple[int, int], ...]) -> re.Pattern[str]:
    """A pattern matching any one character of the given code point ranges."""
    body = "".join(re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}"
                   for lo, hi in ranges)
    return re.compile(f"[{body}]")


LATIN = script_pattern(LATIN_RANGES)
CYRILLIC = script_pattern(CYRILLIC_RANGES)
