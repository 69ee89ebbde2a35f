"""How an answer's quotes are paired with its markers, as a table of answers written the way models
write them and the (markers, quote, claim) they must give; and marker equivalence. No store needed."""

from __future__ import annotations

import pytest

from citeline.verify.markers import marker_key, resolve_marker
from citeline.verify.pairing import pair
from citeline.verify.parse import parse_answer

A = "“A controlled lab study (N=12) showed faster reading”"
B = "“A field deployment study (N=6) ran for two weeks”"


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # one quote, one marker
        (
            'The handbook says "Claims are not reimbursed after 90 days" [S1].',
            [(("S1",), "Claims are not reimbursed after 90 days")],
        ),
        # two quotes, each followed by its marker: never every quote with every marker
        (
            f"CiteSee was evaluated in {A} [S5] and in {B} [S6].",
            [(("S5",), A.strip("“”")), (("S6",), B.strip("“”"))],
        ),
        # the marker before the quote
        (
            '[S1] says "Claims are not reimbursed after 90 days", while "the fee is €12,50 per visit" [S2].',
            [
                (("S1",), "Claims are not reimbursed after 90 days"),
                (("S2",), "the fee is €12,50 per visit"),
            ],
        ),
        # a marker list after one quote: the quote may be in any of them
        ('It states "Prüfungen dauern dreißig Tage" [S1][S2].', [(("S1", "S2"), "Prüfungen dauern dreißig Tage")]),
        ('It states "Prüfungen dauern dreißig Tage" [S1, S2].', [(("S1", "S2"), "Prüfungen dauern dreißig Tage")]),
        ('It states "Prüfungen dauern dreißig Tage" [1] and [2].', [(("1", "2"), "Prüfungen dauern dreißig Tage")]),
        # a marker range is every marker in it; "Source:" and "Sources" prefixes are markers too
        ('It states "Prüfungen dauern dreißig Tage" [S1–S3].', [(("S1", "S2", "S3"), "Prüfungen dauern dreißig Tage")]),
        ('It states "Prüfungen dauern dreißig Tage" [2-4].', [(("2", "3", "4"), "Prüfungen dauern dreißig Tage")]),
        (
            'It states "Prüfungen dauern dreißig Tage" (Source: S2).',
            [(("Source: S2",), "Prüfungen dauern dreißig Tage")],
        ),
        (
            'It states "Prüfungen dauern dreißig Tage" [Sources 1, 3].',
            [(("Sources 1", "3"), "Prüfungen dauern dreißig Tage")],
        ),
        ('It states "Prüfungen dauern dreißig Tage" [S1, pp. 3-5].', [(("S1",), "Prüfungen dauern dreißig Tage")]),
        # a bracketed pair of numbers from 0 is an interval, not markers
        ("The parameter t ranges over [0, 1] in the definition [S1].", [(("S1",), None)]),
        (
            'Sources numbered from zero: "Prüfungen dauern dreißig Tage" [0].',
            [(("0",), "Prüfungen dauern dreißig Tage")],
        ),
        (
            'It states "Prüfungen dauern dreißig Tage" [Document 2].',
            [(("Document 2",), "Prüfungen dauern dreißig Tage")],
        ),
        ('It states "Prüfungen dauern dreißig Tage" (Doc 3).', [(("Doc 3",), "Prüfungen dauern dreißig Tage")]),
        # Chinese and Japanese corner brackets are quote marks
        (
            "报告称「所有董事均已出席了审议本次季报的董事会会议」[S1]。",
            [(("S1",), "所有董事均已出席了审议本次季报的董事会会议")],
        ),
        ("『全体董事保证本报告所载资料』とある [2]。", [(("2",), "全体董事保证本报告所载资料")]),
        # a marker written in lower case is the same marker
        ('It states "Prüfungen dauern dreißig Tage" [s1].', [(("s1",), "Prüfungen dauern dreißig Tage")]),
        # two quotes before one marker: both cite it
        (
            'Both "the 65th session" and "model 9130A ships in the 1920s style" agree [S3].',
            [
                (("S3",), "the 65th session"),
                (("S3",), "model 9130A ships in the 1920s style"),
            ],
        ),
        # semicolons separate clauses, each with its own quote and marker
        (
            'Revenue grew "8.1M in 2023" [S1]; costs fell "by 2.7x over the year" [S2].',
            [
                (("S1",), "8.1M in 2023"),
                (("S2",), "by 2.7x over the year"),
            ],
        ),
        # a marker with no quote: a citation without a quote (each marker of a list)
        ("Both rules apply [S1, S2].", [(("S1",), None), (("S2",), None)]),
        # a quote and a marker that quotes nothing, in one sentence
        (
            "It says „nie nach 90 Tagen“ [S1], as also noted [S2].",
            [
                (("S1",), "nie nach 90 Tagen"),
                (("S2",), None),
            ],
        ),
        # guillemets and full-width brackets
        ("Le comité « refuse la démolition du bâtiment » 【3】.", [(("3",), "refuse la démolition du bâtiment")]),
        # an ellipsis inside the quote stays in it (verify checks each part)
        (
            'The rule is "Claims are … reimbursed after 90 days" [S1].',
            [(("S1",), "Claims are … reimbursed after 90 days")],
        ),
        # markers as models also write them: in parentheses with the prefix, footnote references,
        # "Source 1", a dagger note, a page pinpoint (bare "(1)" and "[sic]" are text)
        (
            'Claims are "reimbursed at 70% of the amount" (S1), "within 90 days" (S1; S2).',
            [
                (("S1",), "reimbursed at 70% of the amount"),
                (("S1", "S2"), "within 90 days"),
            ],
        ),
        ('Die Frist beträgt "neunzig Tage ab Eingang" [^2] (1) [sic].', [(("^2",), "neunzig Tage ab Eingang")]),
        ('It says "Prüfungen dauern dreißig Tage" [Source 3].', [(("Source 3",), "Prüfungen dauern dreißig Tage")]),
        ('It says "Prüfungen dauern dreißig Tage" (Source 3).', [(("Source 3",), "Prüfungen dauern dreißig Tage")]),
        ('It says "Prüfungen dauern dreißig Tage" [S1†L3-L5].', [(("S1",), "Prüfungen dauern dreißig Tage")]),
        (
            'It says "Prüfungen dauern dreißig Tage" [S1, p. 3] and "le délai est de 90 jours" [S2 pp. 4–5].',
            [
                (("S1",), "Prüfungen dauern dreißig Tage"),
                (("S2",), "le délai est de 90 jours"),
            ],
        ),
        # a marker list inside the quote marks, ending the quoted text, cites it; a bracket inside
        # the quote is the source's own reference marker
        (
            'The deductible: "the annual deductible of $1,200 has been met [S1]".',
            [
                (("S1",), "the annual deductible of $1,200 has been met"),
            ],
        ),
        (
            '« le délai est de 90 jours [3] », et "wie in [12] gezeigt, gilt das" [S2].',
            [
                (("3",), "le délai est de 90 jours"),
                (("S2",), "wie in [12] gezeigt, gilt das"),
            ],
        ),
        # as Chinese, German and French answers write markers: lenticular and full-width brackets
        # with the S, lists inside them, "Quelle", and page pinpoints "S. 3", "Seite 3", "第3页"
        (
            "报告称「所有董事均未出席审议本次季报的董事会会议」【S1】。",
            [(("S1",), "所有董事均未出席审议本次季报的董事会会议")],
        ),
        (
            "报告称「所有董事均已出席审议本次季报的会议」【S1，S2】。",
            [(("S1", "S2"), "所有董事均已出席审议本次季报的会议")],
        ),
        ("报告称「公司第一季度报告未经审计」［S2］。", [(("S2",), "公司第一季度报告未经审计")]),
        ("报告称「公司第一季度报告未经审计」（S2）。", [(("S2",), "公司第一季度报告未经审计")]),
        ("报告称「公司第一季度报告未经审计」[S1 第1页]。", [(("S1",), "公司第一季度报告未经审计")]),
        ("Es heißt „im Wintersemester geschrieben“ [S1, S. 1].", [(("S1",), "im Wintersemester geschrieben")]),
        ("Es heißt „im Wintersemester geschrieben“ [S1, Seite 1–2].", [(("S1",), "im Wintersemester geschrieben")]),
        ("Es heißt „im Wintersemester geschrieben“ [Quelle 3].", [(("Quelle 3",), "im Wintersemester geschrieben")]),
        # German quotation marks pointing inwards, as German books print them
        (
            "Bemerkung 6: »Jede Folge hat höchstens einen Grenzwert« [S1].",
            [(("S1",), "Jede Folge hat höchstens einen Grenzwert")],
        ),
        # single quotes, with an apostrophe inside
        (
            "The handbook states that ‘Claims aren’t reimbursed after 90 days’ [S2].",
            [(("S2",), "Claims aren’t reimbursed after 90 days")],
        ),
        # straight single quotes, as answers written inside JSON strings quote; scare quotes of one
        # word, "rock 'n' roll" and "the '90s" are no quotes, nor are apostrophes
        (
            "Das Handbuch sagt 'Claims aren't reimbursed after 90 days in Zürich' [S2].",
            [(("S2",), "Claims aren't reimbursed after 90 days in Zürich")],
        ),
        ("The '90s were 'great times for the café' [S1].", [(("S1",), "great times for the café")]),
        ("Employees' claims are 'not reimbursed after 90 days' [S1].", [(("S1",), "not reimbursed after 90 days")]),
        ("It's the café's policy that rock 'n' roll in the '90s isn't 'reasonable' [S1].", [(("S1",), None)]),
        (
            "The policy \"explains what 'reasonable' means for the café\" [S1].",
            [(("S1",), "explains what 'reasonable' means for the café")],
        ),
        # the source's own reference ending a quote, which the writer's marker follows
        (
            'Summaries of long documents "can also be prone to hallucination [15]" [S2].',
            [(("S2",), "can also be prone to hallucination [15]")],
        ),
        ("Es heißt „die Prüfung dauert an [3, 4]“ [S1].", [(("S1",), "die Prüfung dauert an [3, 4]")]),
        # a marker before its quote after a clause break is that quote's, not the one before
        (
            '[S2] says "Claims are reimbursed at 70%", while [S3] adds that "Unused balances roll over".',
            [(("S2",), "Claims are reimbursed at 70%"), (("S3",), "Unused balances roll over")],
        ),
    ],
)
def test_pairing_table(sentence: str, expected: list[tuple[tuple[str, ...], str | None]]) -> None:
    got = [(p.markers, p.quote) for p in pair(sentence)]
    assert got == expected


@pytest.mark.parametrize(
    ("sentence", "claims"),
    [
        # the claim is the clause around the quote up to its marker, not the sentence
        (
            f"CiteSee was evaluated in {A} [S5] and in {B} [S6].",
            [f"CiteSee was evaluated in {A}", f"and in {B}"],
        ),
        (
            '[S1] says "Claims are not reimbursed after 90 days", while "the fee is 12 € per visit" [S2].',
            ['says "Claims are not reimbursed after 90 days"', '"the fee is 12 € per visit"'],
        ),
        # an uncited clause before a clause break is not the next quote's claim
        (
            'Northwind does not process claims itself; instead the FSA lets you "set aside up to $3,200" [S3].',
            ['instead the FSA lets you "set aside up to $3,200"'],
        ),
        (
            'Late claims are not reimbursed, but "Unused balances of up to $640 roll over" [S3].',
            ['"Unused balances of up to $640 roll over"'],
        ),
        # a dash before a clause of its own breaks; a dash right before the quote leads into it
        (
            'Benefits start when an employee cannot manage two activities — the plan then pays "$150 a day" [S5].',
            ['the plan then pays "$150 a day"'],
        ),
        (
            "Der Bericht wurde geprüft – „der Bericht ist nicht geprüft“ [S1].",
            ["Der Bericht wurde geprüft – „der Bericht ist nicht geprüft“"],
        ),
    ],
)
def test_the_claim_is_the_clause_up_to_the_marker(sentence: str, claims: list[str]) -> None:
    from citeline.verify.pairing import clause_text

    assert [clause_text(sentence, p) for p in pair(sentence)] == claims


def test_parsed_answer_gives_one_citation_per_pairing_with_sentence_and_clause() -> None:
    answer = {
        "answer": (
            "Here is what the sources say:\n\n"
            f"CiteSee was evaluated in {A} [S5] and in {B} [S6]. "
            'The handbook says "Claims are not reimbursed after 90 days" [1][2]. Both rules apply [S1, S2].'
        ),
        "sources": {"S1": "ck_a", "S2": "ck_b", "S5": "ck_c", "S6": "ck_d"},
    }
    parsed = parse_answer(answer)
    got = [(c.marker, c.quote, c.sentence) for c in parsed.citations]
    assert got == [
        ("S5", A.strip("“”"), 1),
        ("S6", B.strip("“”"), 1),
        # a marker list after a quote: a citation for each of its markers
        ("1", "Claims are not reimbursed after 90 days", 2),
        ("2", "Claims are not reimbursed after 90 days", 2),
        ("S1", None, 3),
        ("S2", None, 3),
    ]
    first = parsed.citations[0]
    assert first.claim == f"CiteSee was evaluated in {A}"
    assert first.claim_from_answer


def test_explicit_citations_find_their_sentence_and_clause_by_the_same_pairing() -> None:
    answer = {
        "answer": f"CiteSee was evaluated in {A} [S5] and in {B} [S6]. Unrelated [S6].",
        "sources": {"S5": "ck_c", "S6": "ck_d"},
        "citations": [
            {"marker": "S6", "quote": "A field deployment study (N=6) ran for two weeks"},
            {"marker": "5", "quote": "A controlled lab study (N=12) showed faster reading"},
            {"marker": "S6", "quote": "A field deployment study (N=6) ran for two weeks", "claim": "given"},
        ],
    }
    c = parse_answer(answer).citations
    assert [(x.marker, x.sentence) for x in c] == [("S6", 0), ("5", 0), ("S6", 0)]
    assert c[0].claim == f"and in {B}"
    assert c[1].claim == f"CiteSee was evaluated in {A}"
    assert c[2].claim == "given"  # a claim given is kept
    assert not c[2].claim_from_answer


def test_anthropic_blocks_claim_their_own_text() -> None:
    data = {
        "content": [
            {"type": "text", "text": "Reading tools help. "},
            {
                "type": "text",
                "text": "A lab study (N=12) showed faster reading",
                "citations": [{"type": "char_location", "document_index": 0, "cited_text": "faster reading"}],
            },
            {"type": "text", "text": ", and a field study ran for two weeks."},
        ],
        "documents": ["ck_a"],
    }
    (c,) = parse_answer(data).citations
    assert c.claim == "A lab study (N=12) showed faster reading"
    assert c.marker == "0"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("S1", "1", True),
        ("[S1]", "s1", True),
        ("【1】", "S1", True),
        ("S1", "S10", False),
        ("S", "", False),
        ("Doc1", "1", False),
        ("^1", "S1", True),
        ("Source 2", "2", True),
        ("source S2", "[S2]", True),
        ("Sourcebook 2", "2", False),
        ("Source: S2", "S2", True),
        ("Sources 3", "3", True),
        ("Document 1", "S1", True),
        ("doc 2", "2", True),
        ("【S1】", "1", True),
        ("［S2］", "S2", True),
        ("Quelle 3", "S3", True),
        ("来源3", "3", True),
    ],
)
def test_marker_equivalence(a: str, b: str, same: bool) -> None:
    assert (marker_key(a) == marker_key(b)) is same


def test_resolve_marker_prefers_the_exact_name() -> None:
    assert resolve_marker("1", ["S1", "S2"]) == "S1"
    assert resolve_marker("S2", ["1", "2"]) == "2"
    assert resolve_marker("S1", ["1", "S1"]) == "S1"
    assert resolve_marker("S3", ["S1", "S2"]) is None


def test_a_sentence_end_inside_a_quote_is_not_one() -> None:
    from citeline.verify.parse import split_sentences

    answer = 'It says "Claims end… 90 days later. Really" [S1]. Next one, „für dich“.'
    assert [s.text for s in split_sentences(answer)] == [
        'It says "Claims end… 90 days later. Really" [S1].',
        "Next one, „für dich“.",
    ]


def test_a_claim_knows_the_other_quotes_inside_it() -> None:
    # "A", and "B" [3]: both cite [3], and A's clause runs to the marker, over B; B's numbers and
    # negations are B's to answer for (its own citation checks them), not A's
    text = (
        'Sie können "bis zu 3.200 € im Jahr" zurücklegen, and "Unused balances of up to $640 roll over" [3]. '
        'Care "pays a daily benefit" [4]; it "does not pay" [4].'
    )
    explicit = {"marker": "3", "quote": "bis zu 3.200 € im Jahr"}
    for answer in ({"answer": text, "sources": {}}, {"answer": text, "sources": {}, "citations": [explicit]}):
        first = parse_answer(answer).citations[0]
        assert (
            first.claim
            == 'Sie können "bis zu 3.200 € im Jahr" zurücklegen, and "Unused balances of up to $640 roll over"'
        )
        assert first.other_quotes == ("Unused balances of up to $640 roll over",)
    c = parse_answer({"answer": text, "sources": {}}).citations
    assert [x.other_quotes for x in c[1:]] == [(), (), ()]


def test_markers_named_in_the_injected_set_are_markers_too() -> None:
    text = (
        'Claims are "reimbursed at 70% of the allowed amount" [doc1]. Die Frist ist „neunzig Tage“ [Doc1, DOC2] [sic].'
    )
    plain = parse_answer({"answer": text, "context": "ctx_x"})
    assert plain.citations == []  # unknown names are text, as "[sic]" is
    assert not plain.knows(["doc1", "doc2"])
    assert plain.knows(["S1", "2"])  # numbered markers need no knowing
    for named in (
        parse_answer({"answer": text, "context": "ctx_x"}, markers=["doc1", "doc2"]),
        parse_answer({"answer": text, "sources": {"doc1": "ck_a", "doc2": "ck_b"}}),
    ):
        assert named.knows(["doc1", "doc2"])
        assert [(c.marker, c.quote) for c in named.citations] == [
            ("doc1", "reimbursed at 70% of the allowed amount"),
            ("Doc1", "neunzig Tage"),
            ("DOC2", "neunzig Tage"),
        ]
        assert [s.markers for s in named.sentences] == [("doc1",), ("Doc1", "DOC2")]
        assert named.citations[1].claim == "Die Frist ist „neunzig Tage“"


def test_a_page_pinpoint_after_a_marker_is_where_the_quote_should_be() -> None:
    text = 'It says "Prüfungen dauern dreißig Tage" [S1, p. 3] and "le délai est de 90 jours" [S2 pp. 4–5] [S3].'
    got = [(c.marker, c.pages) for c in parse_answer({"answer": text, "sources": {}}).citations]
    # a pinpoint belongs to its one marker: a list with one (``[S2 pp. 4–5] [S3]``) pinpoints nothing
    assert got == [("S1", (3, 3)), ("S2", None), ("S3", None)]
    # German and Chinese pinpoints
    text = "Es heißt „im Wintersemester geschrieben“ [S1, S. 2–3]，报告称「公司第一季度报告未经审计」[S2 第4页]。"
    got = [(c.marker, c.pages) for c in parse_answer({"answer": text, "sources": {}}).citations]
    assert got == [("S1", (2, 3)), ("S2", (4, 4))]


def test_markdown_blocks_are_sentences_of_their_own() -> None:
    # bullets without full stops, a heading, a numbered list and a block quote: each its own
    # sentence (not one run-on sentence over the list), their markdown markers left out
    answer = "\n".join(
        [
            "## Anspruch und Fristen",
            '- Coverage starts "on the first day of the month after 30 days" [1]',
            "- **Fixed-term staff**: treated as permanent after six",
            "  months of employment",
            "",
            "> Where this handbook and the plan documents disagree, the plan documents prevail. [1]",
            "",
            '1. Claims are "not reimbursed after 90 days" [2]',
            "2) Receipts sind nötig [2]. Late ones too.",
        ]
    )
    parsed = parse_answer({"answer": answer, "sources": {}})
    got = [(s.text, s.kind) for s in parsed.sentences]
    assert got == [
        ("Anspruch und Fristen", "heading"),
        ('Coverage starts "on the first day of the month after 30 days" [1]', "text"),
        ("**Fixed-term staff**: treated as permanent after six\n  months of employment", "text"),
        ("Where this handbook and the plan documents disagree, the plan documents prevail. [1]", "quote"),
        ('Claims are "not reimbursed after 90 days" [2]', "text"),
        ("Receipts sind nötig [2].", "text"),
        ("Late ones too.", "text"),
    ]
    assert all(answer[s.start : s.end] == s.text for s in parsed.sentences)
    # a block quote without quote marks quotes itself, up to the markers that end it
    assert [(c.marker, c.quote, c.sentence) for c in parsed.citations] == [
        ("1", "on the first day of the month after 30 days", 1),
        ("1", "Where this handbook and the plan documents disagree, the plan documents prevail.", 3),
        ("2", "not reimbursed after 90 days", 4),
        ("2", None, 5),
    ]


@pytest.mark.parametrize(
    "tail",
    [
        "Sources:\n[S1] pdf/policy_handbook.pdf (version 1, p. 1)\n[S2] pdf/policy_handbook.pdf (version 1, p. 2)",
        "**References**\n- [S1] Northwind Benefits Handbook, p. 1\n- [S2] Northwind Benefits Handbook, p. 2",
        "## Quellen\n1. [1] Leistungshandbuch, S. 1\n2. [2] Leistungshandbuch, S. 2",
        "[S1] Northwind Benefits Handbook, p. 1\n[S2] Northwind Benefits Handbook, p. 2",  # no heading
        "来源：\n[S1] 员工福利手册，第1页\n[S2] 员工福利手册，第2页",  # a full-width colon
        "参考资料\n【S1】员工福利手册，第1页\n【S2】员工福利手册，第2页",
    ],
)
def test_the_answers_list_of_its_sources_cites_nothing(tail: str) -> None:
    answer = f'Claims are "reimbursed at 70% of the allowed amount" [S1].\n\n{tail}'
    parsed = parse_answer({"answer": answer, "sources": {}})
    assert [(c.marker, c.quote) for c in parsed.citations] == [("S1", "reimbursed at 70% of the allowed amount")]
    assert [s.kind for s in parsed.sentences][-2:] == ["reference", "reference"]


def test_a_line_opening_with_a_marker_that_quotes_is_a_citation() -> None:
    # the answer's last lines open with markers but quote: they are citations, not a list of sources;
    # a marker wrapped onto a line of its own stays with its sentence
    answer = (
        'Two rules:\n[S1] says "Claims are not reimbursed after 90 days".\n[S2] says „die Frist beträgt dreißig Tage“'
    )
    assert [(c.marker, c.quote) for c in parse_answer({"answer": answer, "sources": {}}).citations] == [
        ("S1", "Claims are not reimbursed after 90 days"),
        ("S2", "die Frist beträgt dreißig Tage"),
    ]
    # a closing line that opens with a marker but says something is a citation (here without a quote)
    said = 'Claims are "not reimbursed after 90 days" [S1].\n[S2] also covers dental care.'
    assert [(c.marker, c.quote) for c in parse_answer({"answer": said, "sources": {}}).citations] == [
        ("S1", "not reimbursed after 90 days"),
        ("S2", None),
    ]
    wrapped = 'Claims are "not reimbursed after 90 days"\n[S1]. Receipts are converted at the day\'s rate.'
    assert [(c.marker, c.quote) for c in parse_answer({"answer": wrapped, "sources": {}}).citations] == [
        ("S1", "not reimbursed after 90 days"),
    ]
