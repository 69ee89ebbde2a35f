"""Chinese."""

from __future__ import annotations

from citeline.text.lang import Language, words

LANGUAGE = Language(
    "zh",
    unspaced=True,
    # negations are characters inside a word ("未经审计": not audited; "并非", "没有", "无法"); 非 alone
    # is a prefix more often than not ("非居民": nonresident, "非流动": non-current)
    negation_chars="[不未无没勿]|[并绝决]非",
    # ... and words holding one that deny nothing: different, continually, but, not only, many, soon,
    # whatever, future, very, have to, all without exception, unless, unlimited, might as well
    not_negation_chars=(
        "不同",
        "不断",
        "不过",
        "不仅",
        "不但",
        "不少",
        "不久",
        "不管",
        "不论",
        "无论",
        "未来",
        "非常",
        "不得不",
        "无不",
        "除非",
        "无限",
        "不妨",
    ),
    negation_skip="经有能得会是",
    negations=words("不 未 无 非 没 别 莫 勿"),
    negating_prefixes=("不", "未", "无", "非", "反"),
    says=("称|表示|指出|写道|提到|说|如下",),
    up=words("增长 增加 上升 提高 上涨 增至 增幅 升至 扩大 翻倍 高于"),
    down=words("下降 减少 降低 下跌 降至 减至 缩小 减半 低于 下滑 回落"),
    monotone=("逐年", "每年", "持续", "连续", "不断"),
    period_current=("本期", "期末", "本报告期", "报告期末", "本年", "年初至报告期末", "年末余额"),
    period_prior=("上期", "期初", "上年", "上年同期", "上年年末", "年初余额"),
    shortfall_quantities=words("亏损 赤字 损失"),
    scales={"万": 10**4, "亿": 10**8},
    units_of={
        "time": {"hour": "小时", "day": "天 日", "week": "周 星期", "month": "个月", "year": "年"},
        "money": {"cny": "元"},
    },
    scale_phrases={"千元": 1000, "万元": 10**4, "百万": 10**6, "亿元": 10**8},
    source_words=("来源", "出处"),
)
