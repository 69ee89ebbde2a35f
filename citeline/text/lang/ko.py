"""Korean."""

from __future__ import annotations

from citeline.text.lang import Language, words

LANGUAGE = Language(
    "ko",
    # negation: the adverb 못 before a verb, the verb endings -지 않다 / -지 못하다, 없다 and 아니다 (the
    # adverb 안 is left out: as a word it is as often 안 "bill, draft", "안 제15조"); and the
    # Sino-Korean prefixes 불, 비, 무, 미 (불가능 "impossible", 무료 "free of charge")
    negations=words("못 아니다 아닌 않는다 않고 않으며 않은 않는 없이 없는 없다 없고"),
    negation_chars="않|없|아니|못하",
    not_negation_chars=("아니라", "뿐만 아니라"),
    negating_prefixes=("불", "비", "무", "미", "반"),
    says=("따르면|의하면|밝혔다|명시|규정",),
    up=words("증가 상승 확대 늘어 인상 높은 많은 증가했다 상승했다"),
    down=words("감소 하락 축소 줄어 인하 낮은 적은 감소했다 하락했다"),
    monotone=("매년", "해마다", "꾸준히", "지속적으로"),
    units_of={"time": {"day": "일", "month": "개월", "year": "년"}, "money": {"krw": "원"}},
    source_words=("출처",),
    particles=words(
        """
        은 는 이 가 을 를 의 에 에서 에게 께 한테 으로 로 와 과 도 만 부터 까지 으로부터 로부터 보다 처럼
        이나 나 이며 며 이고 고 으로서 로서 으로써 로써 이란 란 이라는 라는 등 들
        """
    ),
)
