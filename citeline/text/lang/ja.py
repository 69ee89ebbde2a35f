"""Japanese."""

from __future__ import annotations

from citeline.text.lang import Language, words

LANGUAGE = Language(
    "ja",
    unspaced=True,
    # negation is a verb ending (ない, ません, ず) or a prefix character (不, 未, 無, 非)
    negation_chars="ない|ません|ず[、。に]|[不未無非]",
    not_negation_chars=("少ない", "未来", "非常", "無料", "不可欠", "ないし"),
    negations=words("ない ません ず 不 未 無 非"),
    negating_prefixes=("不", "未", "無", "非", "反"),
    says=("によると|によれば|とされる|と述べ|と記載|次のとおり",),
    up=words("増加 上昇 拡大 向上 増え 伸び 倍増"),
    down=words("減少 低下 縮小 減っ 下落 半減"),
    monotone=("年々", "毎年", "一貫して", "継続的に"),
    scales={"万": 10**4, "億": 10**8},
    units_of={
        "time": {"hour": "時間", "day": "日", "week": "週間", "month": "か月 ヶ月 カ月", "year": "年"},
        "money": {"jpy": "円"},
    },
    scale_phrases={"千円": 1000, "百万円": 10**6, "億円": 10**8},
    source_words=("出典",),
)
