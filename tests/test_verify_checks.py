"""Each named check of verify on its own: cases where it must fire and cases where it must not, on
real SQLite stores of small documents in several languages; a check that fires is that check
(switched off, its flag goes), and a check switched off leaves every other decision as it was.

The second half holds one test per kind of misjudgement issue 31 found on answers from writers
who never saw the rules (table rows, negations in single quotes, brackets and joined hyphens, a
claim's own words against its quote, a one-character change of meaning, a relative clause that
carries the negation in English, French, German and Spanish)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citeline.batch import IngestOptions, ingest_files
from citeline.cli import cli
from citeline.store import Store
from citeline.verify import VerifyOptions, verify_answer
from citeline.verify.checks import CHECKS, names
from citeline.verify.errors import InputError

#: One small document a language or shape; each is one chunk.
DOCUMENTS = {
    "plan.txt": (
        "The plan that we offer does not cover a yearly dental cleaning for retirees. A member may attend at "
        "most one hearing per event. The fee for each hearing is 45 dollars, refunded within 30 days of the "
        "request. Delays ≤ 5 days are waived. Scores above 0.8 count as a match, and the median score is 0.9. "
        "Complaints fell sharply after the reform of the Zürich "
        "office. Staff must not share passwords with contractors. Such use is un-\nlawful in every member "
        "state. The deposit is non-\nrefundable after the first hear-\ning, and staff may not re-\nissue it.\n"
    ),
    # tables as a text file sets them (a line a row: a blank line keeps a line break in the chunk)
    "checks.txt": (
        "NICS firearm checks by state: November 2015\n\n"
        "State Permit Handgun Long Gun Other Multiple Totals\n\n"
        "Kentucky 264,140 12,155 14,847 254 648 295,891\n\n"
        "Kansas 1,482 6,051 7,114 393 281 15,321\n"
    ),
    "applicants.txt": (
        "Table 2. Applicants by region (Bürgerämter)\n\n"
        "Region 2021 2022 2023 2024\n\n"
        "North 820 760 705 640\n\n"
        "South 410 410 410 410\n\n"
        "East 300 340 360 350\n"
    ),
    "tarif.txt": (
        "Der Tarif, den wir anbieten, umfasst keine jährliche Zahnreinigung für Rentner. Die Beiträge "
        "stiegen 2023 um 4,5 % gegenüber dem Vorjahr.\n"
    ),
    "regime.txt": (
        "Le régime que nous proposons ne couvre pas un détartrage annuel pour les retraités. Les "
        "cotisations ont augmenté de 4,5 % en 2023.\n"
    ),
    "plan_es.txt": (
        "El plan que ofrecemos no cubre una limpieza dental anual para los jubilados. Las cuotas "
        "subieron un 4,5 % en 2023.\n"
    ),
    "norm.txt": (
        "Die Norm DIN 1450 regelt die Leserlichkeit von Beschriftungen. Sie gilt seit Jahren in allen "
        "Ämtern. Schriften müssen auch aus der Ferne klar lesbar sein.\n"
    ),
    "revenue.txt": "Revenue of the Zürich office rose to 0.47, 0.72 and 0.93 billion francs in 2021, 2022 and 2023.\n",
    # two periods a row: the header says which is the later (期末 before 期初; 2019 before 2018), or
    # the row's change column does (29.73% is the change from the second figure to the first)
    "bilan.txt": (
        "资产负债表（单位：元）\n\n项目 期末余额 期初余额\n\n其他应收款 18,267,606.14 3,123,072.43\n\n"
        "净利润 -4,831,324.09 -15,714,409.94\n"
    ),
    "umsatz.txt": "Umsatz nach Filiale (Tsd. €)\n\nFiliale 2019 2018\n\nZürich 1,250 1,410\n",
    "changes.txt": "Änderungen der Posten\n\n预付款项 2,436,695.05 1,878,311.93 29.73%\n",
    # a tax table's rows chain their ranges: a row states every amount inside its range
    "tax.txt": (
        "2007 Tax Table (Zürich office copy)\n\nAt least But less than Your tax is\n\n"
        "1,100 1,125 111\n\n1,125 1,150 114\n\n1,150 1,175 116\n"
    ),
    "sp.txt": (
        "NIST SP 800-223 covers high-performance computing. Zones separate the workloads. Each zone has "
        "its own policy. Logs go to a central store in Zürich. The guide was approved by the board on "
        "2024-02-02.\n"
    ),
    "roe.txt": "盈利能力指标（Zürich 分部）\n\n净资产收益率 6.0% 15.0% 27.9% 28.8% 26.5%\n",
    # a forecast table whose header row of years stands paragraphs above the row
    "forecast.txt": (
        "2021A 2022E 2023E 2024E\n\nNote one on Zürich.\n\nNote two.\n\nNote three.\n\nNote four.\n\n"
        "P/E 82.90 30.47 20.02 15.38\n"
    ),
    "costs.txt": (
        "Fixed embeddings from the Zürich model make the pipeline less costly to run. Partial annotation "
        "keeps a high correlation with the full set, but shows higher variance.\n"
    ),
    "kosten.txt": (
        "Die festen Einbettungen machen den Betrieb in Zürich deutlich weniger kostspielig. Das Modell wird "
        "nicht neu trainiert, und die Ergebnisse sind für alle Aufgaben gleich gut.\n"
    ),
    # a list run into its sentence: its items are what the lead-in prohibits
    "order.txt": (
        "The court orders as follows. Defendant Müller is specifically prohibited from: (a) uploading any "
        "source code of the firm on any website, server or domain; (b) disclosing any source code of the "
        "firm to any other person; and (c) using any of its access keys.\n"
    ),
    "guide.txt": (
        "These guidelines apply to every federal agency in Zürich and elsewhere. Nor should these "
        "guidelines be interpreted as altering or superseding the existing authorities of the Secretary.\n"
    ),
    "fund.txt": (
        "The Company operates as a series company comprised of nine portfolios currently in operation in Zürich.\n"
    ),
    "algo.txt": "Ces tests constituent la partie la plus couteuse de l'algorithme SummarizeLog à Zürich.\n",
    "topo.txt": "Aber alle U ∈ B haben unendlich viele Elemente, also ist die Topologie in Zürich nicht diskret.\n",
    "herd.txt": (
        "Although there are always some people who aren’t vaccinated in Zürich, herd immunity substantially "
        "undercuts that risk.\n"
    ),
    "transfer.txt": "Such a transfer is irreversible once the Zürich registry confirms it.\n",
    "cost.txt": (
        "Building a spare system in Zürich is often too costly. Compared to generating long completions at "
        "one time, we speculate that this could decrease the cost of checking.\n"
    ),
    "cost_fr.txt": "Le calcul des tests reste lent à Zürich, malgré les index.\n",
    "etat_fr.txt": "La portion arrière du bâtiment de Zürich est en mauvais état et son authenticité est peu élevée.\n",
    "errors.txt": "Staff at the Zürich office reported a high error rate in the first month.\n",
    "cats.txt": (
        "The needs of today's cats in Zürich have changed little from those of their wild ancestor. "
        "Its ability can be substantially increased by making them produce step-by-step reasoning.\n"
    ),
    "survey.txt": (
        "A 7-point Likert scale is the most common choice in our Zürich survey (18 out of 38 papers). "
        "Muscle accounts for 18 to 24 percent of a baby’s body weight. Revenue rose 15% in 2023. "
        "Section 3 of 2019 covers the Zürich survey.\n"
    ),
    "olap_fr.txt": (
        "Les opérateurs de Zürich travaillent en traitant chaque dimension indépendamment les unes des autres.\n"
    ),
    "karte_de.txt": "Jede Mannigfaltigkeit in Zürich hat mindestens eine Karte, und das ist wichtig.\n",
    "vaccine.txt": "Parents in Zürich who choose not to vaccinate their children believe that the disease is mild.\n",
    "vehicle.txt": (
        "If you used your own vehicle in Zürich and item 2 does not apply, you may file the short form instead. "
        "If you rent a vehicle, you may not file the short form.\n"
    ),
    "dense.txt": (
        "Such approaches complement the sparse methods in Zürich as they can give high scores to related "
        "text, even without exact token matching.\n"
    ),
    "spans.txt": "Yes is appropriate in Zürich only if all the facts in the span are supported by the source.\n",
    "agreement.txt": (
        "While 33 papers in Zürich report using multiple annotators per summary, only 12 report agreement.\n"
    ),
    "umfrage_de.txt": (
        "Die Umfrage ging an 40 Ämter in München, und davon haben nur 30 die Fragen der Stadt beantwortet.\n"
    ),
    "batch.txt": "In Zürich, accuracy consistently improves as the batch size grows, at a higher cost.\n",
    "lote_es.txt": "En Málaga, la precisión mejora cuando el tamaño del lote aumenta, aunque el coste sube.\n",
    "aufwand_de.txt": (
        "Beschäftigen Sie sich erst am Ende mit dem Thema Barrierefreiheit, ist der Aufwand in München "
        "ungefähr zehnmal so hoch.\n"
    ),
    "algos.txt": (
        "Some algorithms in Zürich directly try to find models based on well-known distributions. "
        "One example of such an activation function is the sigmoid function.\n"
    ),
    "algos_de.txt": (
        "Einige Algorithmen, die in München entwickelt wurden, setzen bekannte Verteilungen voraus, und die "
        "Ergebnisse sind nicht immer gut.\n"
    ),
    "resources.txt": "Separation of resources in Zürich not only reduces the risk of competition but also stress.\n",
    "pairs.txt": "The system in Zürich builds metaclusters by taking the most strongly connected pair first.\n",
    "corr.txt": (
        "In Zürich the correlation between rainfall and sales was 0.42 over the period. The balance was "
        "(1,200) at year end. Temperatures fell to 5 degrees below normal in Zürich.\n"
    ),
    "inhalt_de.txt": "Die meisten der hier dargelegten Inhalte sind das Ergebnis eines Workshops in München.\n",
    "bau_de.txt": "Die Kosten für den Neubau in München sind im letzten Jahr deutlich gestiegen.\n",
    "cat.txt": (
        "Kittens in Zürich enjoy contact when handled during their period of socialization from 2–7 weeks of age.\n"
    ),
    "clusters.txt": (
        "Of the clusters removed in Zürich, 80.0M of these filtered clusters have no associated abstract or PDF. "
        "Once inhomogeneities are present the age of the Universe is not everywhere the same.\n"
    ),
    "days.txt": (
        "Do not count the following days as days of presence in Zürich:\n\n"
        "- Days you commute to work from a residence in Canada or Mexico.\n\n"
        "- Days you are in transit between two foreign points.\n"
    ),
    "mail.txt": (
        "Mail the signed form to the Zürich office within 30 days of the hearing. Forms sent by fax are not accepted.\n"
    ),
    "address.txt": (
        "Write to the Zürich office with comments on this form. DO NOT MAIL APPLICATIONS TO THIS ADDRESS. "
        "Mailing your application to this address will significantly delay application processing.\n"
    ),
    "classes.txt": (
        "All eleven share classes of the Zürich fund have identical voting and dividend rights, except "
        "that the classes bear different distribution fees.\n"
    ),
    "service_ko.txt": "이 서비스는 모든 회원에게 유료로 제공되며 매월 청구됩니다.\n",
    # an index: each entry's dot leader and page numbers (a German one)
    "index.txt": (
        "Stichwortverzeichnis\n\nAbzüge für Zürich . . . . . . 12 Adresse, Änderung . . . . . . . 31 "
        "Kindergeld . . . . . . . . 20, 23 Krankheitskosten . . . . . . 26-27 Lohnsteuer . . . . . . 8\n"
    ),
    # a table whose rows a claim compares
    "ergebnisse.txt": (
        "Tabelle 4: Genauigkeit (Zürich, Prüfung)\n\nModell NQ SQuAD\n\nBM25 32.6 38.1\n\nDPR 41.5 29.8\n"
    ),
    # an ellipsis of the source's own in a formula (French)
    "requete.txt": (
        "Une requête q sur C est un multi-ensemble de références q = R1 × . . . × Rn. Un log L est un "
        "ensemble de requêtes.\n"
    ),
    # a grading in a clause the quote ends before a comparison of another sentence
    "variance.txt": (
        "Partial annotation has a high correlation to full annotation, but higher variance: In Figure 4 (left) "
        "we plot Kendall's τ (relative ordering of scores in Zürich). Full annotation shows less variance than "
        "partial annotation.\n"
    ),
    "plan_zh.txt": "根据第三条规定，该方案可能在明年由市政府全面实施。\n",
    # opposites, one side compared against another thing
    "speed.txt": (
        "The new model is slower than the baseline on long documents from Zürich. The method "
        "overestimates the true effect in small samples.\n"
    ),
    "scoring.txt": (
        "In the Zürich task an instance counts as correct only if it exactly matches the gold annotation, "
        "with no credit for partial matching.\n"
    ),
    "decode.txt": (
        "The Zürich decoder finds the most likely sequence with Viterbi decoding, with no further constraints.\n"
    ),
    "forecast_zh.txt": (
        "盈利预测（单位：百万元）\n\n指标 2021A 2022A 2023E 2024E\n\n毛利率(%) 33.7% 35.0% 36.0% 38.0%\n"
    ),
    "protocols.txt": (
        "Protocols of the Zürich survey: Likert-scale (24 papers), A/B testing (13 papers), binary per-sentence "
        "labels (4 papers).\n"
    ),
    "methoden_de.txt": (
        "Die Gutachter der Zürcher Umfrage haben für die Bewertung der Zusammenfassungen die folgenden Methoden "
        "verwendet: Likert-Skala (24 Arbeiten), A/B-Test (13 Arbeiten), binäre Satzlabels (4 Arbeiten).\n"
    ),
    "spurt.txt": "Adolescent boys in Zürich experience larger growth spurts than adolescent girls.\n",
    "tempo.txt": "Das neue Modell ist langsamer als das Basismodell, und es wird in Zürich nicht mehr verwendet.\n",
    # denials a claim restates with a negative word of its own
    "trial.txt": (
        "No adverse events were reported in either group of the Zürich trial. The tool does not support "
        "scanned documents without a text layer.\n"
    ),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    folder = tmp_path_factory.mktemp("checks")
    docs = folder / "docs"
    docs.mkdir()
    for name, text in DOCUMENTS.items():
        (docs / name).write_text(text, encoding="utf-8")
    with Store(f"sqlite:///{folder / 'c.db'}") as s:
        ingest_files(s, [docs], IngestOptions(workers=1))
        yield s


def chunk(store: Store, uri: str) -> str:
    (c,) = store.iter_chunks(document=uri)
    return c.chunk_id


def judge(store: Store, uri: str, answer: str, disabled: frozenset[str] = frozenset(), **cit: Any) -> dict[str, Any]:
    """The one citation of ``answer`` (its marker S1 on ``uri``'s chunk)."""
    data: dict[str, Any] = {"answer": answer, "sources": {"S1": chunk(store, uri)}}
    if cit:
        data["citations"] = [{"marker": "S1", **cit}]
    (c,) = verify_answer(store, data, options=VerifyOptions(log=False, disabled=disabled)).as_json()["citations"]
    return c  # type: ignore[no-any-return]


def test_every_check_and_rule_has_its_table() -> None:
    tabled = {case[0] for case in CHECK_CASES} | {case[0] for case in RULE_CASES} | {case[0] for case in TERM_CASES}
    tabled |= {case[0] for case in READING_CASES}
    tabled.add("whole_quote_first")  # test_verify.py: test_a_quote_one_injected_chunk_holds_whole_is_not_a_run_on
    tabled.add("location")  # test_location_fires_where_the_answer_places_the_quote_elsewhere
    assert tabled == set(names())


# ------------------------------------------------------------------------------------ the checks

#: (check, document, answer, fires); citations given explicitly carry ``required_terms`` etc.
CHECK_CASES: list[tuple[str, str, str, bool]] = [
    # claim_numbers: a number of the claim the evidence does not state
    # a German "-mal" word before a comparison is a multiplier ("zehnmal so hoch": ten times as high)
    (
        "claim_numbers",
        "aufwand_de.txt",
        'Left to the end, the effort is about 100 times higher: "ist der Aufwand in München ungefähr zehnmal '
        'so hoch" [S1].',
        True,
    ),
    (
        "claim_numbers",
        "aufwand_de.txt",
        'Left to the end, the effort is about ten times higher: "ist der Aufwand in München ungefähr zehnmal '
        'so hoch" [S1].',
        False,
    ),
    ("claim_numbers", "plan.txt", 'The fee is 54 dollars: "The fee for each hearing is 45 dollars" [S1].', True),
    (
        "claim_numbers",
        "plan.txt",
        'Each hearing costs 45 dollars: "The fee for each hearing is 45 dollars" [S1].',
        False,
    ),
    # the row's total backs a claim that quotes part of the row; a figure the table does not state does not
    (
        "claim_numbers",
        "checks.txt",
        'Kentucky ran 295,891 checks in November 2015: "Kentucky 264,140 12,155 14,847 254 648" [S1].',
        False,
    ),
    (
        "claim_numbers",
        "checks.txt",
        'Kentucky ran 259,891 checks in November 2015: "Kentucky 264,140 12,155 14,847 254 648" [S1].',
        True,
    ),
    (
        "claim_numbers",
        "tarif.txt",
        'Die Beiträge stiegen um 5,5 %: "Die Beiträge stiegen 2023 um 4,5 % gegenüber dem Vorjahr" [S1].',
        True,
    ),
    (
        "claim_numbers",
        "tarif.txt",
        'Die Beiträge stiegen um 4,5 %: "Die Beiträge stiegen 2023 um 4,5 % gegenüber dem Vorjahr" [S1].',
        False,
    ),
    # a number the claim names something by, as the document names it elsewhere, is a name, not a
    # figure of the quote's; a name the document never writes is not
    ("claim_numbers", "norm.txt", 'Nach DIN 1450 "Schriften müssen auch aus der Ferne klar lesbar sein" [S1].', False),
    ("claim_numbers", "norm.txt", 'Nach DIN 1451 "Schriften müssen auch aus der Ferne klar lesbar sein" [S1].', True),
    # a list of numbers shares the scale word of its last
    (
        "claim_numbers",
        "revenue.txt",
        'It made 720 million francs in 2022: "rose to 0.47, 0.72 and 0.93 billion francs" [S1].',
        False,
    ),
    (
        "claim_numbers",
        "revenue.txt",
        'It made 270 million francs in 2022: "rose to 0.47, 0.72 and 0.93 billion francs" [S1].',
        True,
    ),
    # a count in words of what the evidence counts a few words on ("seven active portfolios")
    (
        "claim_numbers",
        "fund.txt",
        'The Company runs seven active portfolios: "a series company comprised of nine portfolios currently in '
        'operation" [S1].',
        True,
    ),
    (
        "claim_numbers",
        "fund.txt",
        'The Company runs nine active portfolios: "a series company comprised of nine portfolios currently in '
        'operation" [S1].',
        False,
    ),
    # a count of a measure is no framing count ("seven months" against "2–7 weeks")
    (
        "claim_numbers",
        "cat.txt",
        'Socialization runs between two and seven months of age, "during their period of socialization from 2–7 '
        'weeks of age" [S1].',
        True,
    ),
    (
        "claim_numbers",
        "cat.txt",
        'Socialization runs between two and seven weeks of age, "during their period of socialization from 2–7 '
        'weeks of age" [S1].',
        False,
    ),
    # row_column: the figure under the year the claim names, not another column's
    (
        "row_column",
        "applicants.txt",
        'North had 705 applicants in 2024: "North 820 760 705 640" [S1].',
        True,
    ),
    (
        "row_column",
        "applicants.txt",
        'North had 640 applicants in 2024: "North 820 760 705 640" [S1].',
        False,
    ),
    (
        "row_column",
        "applicants.txt",
        'North fell to 640 in 2024, down from 705: "North 820 760 705 640" [S1].',
        False,
    ),
    (
        "row_column",
        "forecast_zh.txt",
        'Gross margin reaches 36% in 2024E: "毛利率(%) 33.7% 35.0% 36.0% 38.0%" [S1].',
        True,
    ),
    (
        "row_column",
        "forecast_zh.txt",
        'Gross margin reaches 38% in 2024E: "毛利率(%) 33.7% 35.0% 36.0% 38.0%" [S1].',
        False,
    ),
    # rank_among: the item the claim ranks first (or last) is the one the quote's list counts most (fewest)
    (
        "rank_among",
        "protocols.txt",
        "A/B testing is the most widely used protocol: "
        '"Likert-scale (24 papers), A/B testing (13 papers), binary per-sentence labels (4 papers)" [S1].',
        True,
    ),
    (
        "rank_among",
        "protocols.txt",
        "Likert scales are the most widely used protocol: "
        '"Likert-scale (24 papers), A/B testing (13 papers), binary per-sentence labels (4 papers)" [S1].',
        False,
    ),
    (
        "rank_among",
        "protocols.txt",
        "Likert scales are the least used protocol: "
        '"Likert-scale (24 papers), A/B testing (13 papers), binary per-sentence labels (4 papers)" [S1].',
        True,
    ),
    (
        "rank_among",
        "protocols.txt",
        "Binary labels are the least used protocol: "
        '"Likert-scale (24 papers), A/B testing (13 papers), binary per-sentence labels (4 papers)" [S1].',
        False,
    ),
    # a ranking word without a determiner before it ranks nothing ("in most settings")
    (
        "rank_among",
        "protocols.txt",
        "A/B testing is used in most settings: "
        '"Likert-scale (24 papers), A/B testing (13 papers), binary per-sentence labels (4 papers)" [S1].',
        False,
    ),
    (
        "rank_among",
        "methoden_de.txt",
        "Der A/B-Test ist die häufigste Methode: „Likert-Skala (24 Arbeiten), A/B-Test (13 Arbeiten), binäre "
        "Satzlabels (4 Arbeiten)“ [S1].",
        True,
    ),
    (
        "rank_among",
        "methoden_de.txt",
        "Die Likert-Skala ist die häufigste Methode: „Likert-Skala (24 Arbeiten), A/B-Test (13 Arbeiten), binäre "
        "Satzlabels (4 Arbeiten)“ [S1].",
        False,
    ),
    # claim_bounds: a bound against the quote's bound
    ("claim_bounds", "plan.txt", 'Matches need scores above 0.9: "Scores above 0.8 count as a match" [S1].', True),
    ("claim_bounds", "plan.txt", 'Matches need scores above 0.8: "Scores above 0.8 count as a match" [S1].', False),
    # claim_polarity: the claim asserts what the source denies
    ("claim_polarity", "plan.txt", 'The plan covers "a yearly dental cleaning for retirees" [S1].', True),
    ("claim_polarity", "plan.txt", 'The plan does not cover "a yearly dental cleaning for retirees" [S1].', False),
    ("claim_polarity", "regime.txt", 'Le régime couvre "un détartrage annuel pour les retraités" [S1].', True),
    ("claim_polarity", "regime.txt", 'Le régime ne couvre pas "un détartrage annuel pour les retraités" [S1].', False),
    # a word graded the other way, the answer writing its accent where the source drops it
    (
        "opposite_degree",
        "algo.txt",
        "Ces tests sont l’étape la moins coûteuse : « partie la plus couteuse de l'algorithme SummarizeLog » [S1].",
        True,
    ),
    (
        "opposite_degree",
        "algo.txt",
        "Ces tests sont l’étape la plus coûteuse : « partie la plus couteuse de l'algorithme SummarizeLog » [S1].",
        False,
    ),
    # prefix_opposite: a word in the claim, its negating-prefix form in the quote's clause
    (
        "prefix_opposite",
        "topo.txt",
        "Die Basismengen der Topologie sind allesamt endlich: „Aber alle U ∈ B haben unendlich viele Elemente“ [S1].",
        True,
    ),
    (
        "prefix_opposite",
        "topo.txt",
        "Die Basismengen der Topologie sind allesamt unendlich: „Aber alle U ∈ B haben unendlich viele Elemente“ [S1].",
        False,
    ),
    # a claim whose own words only say who says the quote ("im Text heißt es:") states what the
    # uncited clause before them says
    (
        "prefix_opposite",
        "topo.txt",
        "Die Basismengen der Topologie sind allesamt endlich – im Text heißt es: „Aber alle U ∈ B haben "
        "unendlich viele Elemente“ [S1].",
        True,
    ),
    (
        "prefix_opposite",
        "topo.txt",
        "Die Basismengen der Topologie sind allesamt unendlich – im Text heißt es: „Aber alle U ∈ B haben "
        "unendlich viele Elemente“ [S1].",
        False,
    ),
    (
        "prefix_opposite",
        "transfer.txt",
        'The transfer can be undone, being reversible: "Such a transfer is irreversible once the Zürich registry '
        'confirms it" [S1].',
        True,
    ),
    # a word denied where it stands is its prefixed form (a typographic apostrophe: "aren’t")
    (
        "prefix_opposite",
        "herd.txt",
        'Even though some people are always unvaccinated, "herd immunity substantially undercuts that risk" [S1].',
        False,
    ),
    # antonyms: the language's general lexicon of opposites; a phrase about a comparison's other
    # side ("Compared to …,") says nothing of the subject
    (
        "antonyms",
        "cost.txt",
        'The backup system is affordable: "building a spare system in Zürich is often too costly" [S1].',
        True,
    ),
    (
        "antonyms",
        "cost.txt",
        'The backup system is expensive: "building a spare system in Zürich is often too costly" [S1].',
        False,
    ),
    (
        "antonyms",
        "cost.txt",
        'Short outputs may make checking easier: "we speculate that this could decrease the cost of checking" [S1].',
        False,
    ),
    ("antonyms", "cost_fr.txt", "L’algorithme est rapide : « le calcul des tests reste lent à Zürich » [S1].", True),
    ("antonyms", "cost_fr.txt", "L’algorithme est lent : « le calcul des tests reste lent à Zürich » [S1].", False),
    # the negation checks on faithful restatements of a negative passage (the negation round)
    # claim_denial: a word the claim denies that the source denies too, or says with a negating
    # prefix, agrees; a denial with a negative preposition in it asserts
    (
        "claim_denial",
        "olap_fr.txt",
        "Aucune dimension ne dépend des autres : « en traitant chaque dimension indépendamment les unes "
        "des autres » [S1].",
        False,
    ),
    (
        "claim_denial",
        "olap_fr.txt",
        "Aucune dimension n’est traitée : « en traitant chaque dimension indépendamment les unes des autres » [S1].",
        True,
    ),
    (
        "claim_denial",
        "karte_de.txt",
        "Eine Mannigfaltigkeit ohne Karte gibt es nicht, da „Jede Mannigfaltigkeit in Zürich hat mindestens "
        "eine Karte“ [S1].",
        False,
    ),
    (
        "claim_denial",
        "karte_de.txt",
        "Die Mannigfaltigkeiten, die wir mit dem Buch zu sehen bekommen, haben keine Karte: „Jede "
        "Mannigfaltigkeit in Zürich hat mindestens eine Karte“ [S1].",
        True,
    ),
    # claim_polarity: a hyphenated negating prefix ("non-vaccinating") denies the source's word too
    (
        "claim_polarity",
        "vaccine.txt",
        'Non-vaccinating parents are more likely to believe "that the disease is mild" [S1].',
        False,
    ),
    (
        "claim_polarity",
        "vaccine.txt",
        'Vaccinating parents are more likely to believe "that the disease is mild" [S1].',
        True,
    ),
    # denied_beside: a negation inside the condition a quote opens with denies nothing of its main clause
    (
        "denied_beside",
        "vehicle.txt",
        'Drivers of their own car may file that form: "If you used your own vehicle in Zürich and item 2 '
        'does not apply, you may file the short form instead" [S1].',
        False,
    ),
    (
        "denied_beside",
        "vehicle.txt",
        'Renters can file the form like every driver: "If you rent a vehicle, you may not file the short form" [S1].',
        True,
    ),
    # antonyms: the quote's clause starts at the last word before it that opens a subordinate clause
    (
        "antonyms",
        "dense.txt",
        'Dense encoders can score related text highly "even without exact token matching" [S1].',
        False,
    ),
    # prefix_opposite: a prefixed word in a denial says the plain word
    (
        "prefix_opposite",
        "spans.txt",
        'A span with even one unsupported fact does not qualify: "only if all the facts in the span are '
        'supported by the source" [S1].',
        False,
    ),
    (
        "prefix_opposite",
        "spans.txt",
        'A span with unsupported facts qualifies too: "only if all the facts in the span are supported by the '
        'source" [S1].',
        True,
    ),
    # opposite_attribute: one of two opposites said of a word the quote says the other of, in any
    # clause of the claim's sentence; not in a phrase about a comparison's other side
    (
        "opposite_attribute",
        "etat_fr.txt",
        "Elle est jugée en bon état, mais peu authentique : « la portion arrière du bâtiment de Zürich est en "
        "mauvais état » [S1].",
        True,
    ),
    (
        "opposite_attribute",
        "etat_fr.txt",
        "Elle est en mauvais état : « la portion arrière du bâtiment de Zürich est en mauvais état » [S1].",
        False,
    ),
    (
        "opposite_attribute",
        "errors.txt",
        'The office kept a low error rate; in Zürich, staff reported "a high error rate in the first month" [S1].',
        True,
    ),
    (
        "opposite_attribute",
        "errors.txt",
        'Unlike the old low error rate, staff in Zürich reported "a high error rate in the first month" [S1].',
        False,
    ),
    # opposite_magnitude: a small amount said where the quote says a large one, or the reverse
    ("opposite_magnitude", "cats.txt", 'Cats\' needs have shifted a lot: "have changed little from those" [S1].', True),
    (
        "opposite_magnitude",
        "cats.txt",
        'Step-by-step prompts bring only modest gains: "its ability can be substantially increased" [S1].',
        True,
    ),
    ("opposite_magnitude", "cats.txt", 'Cats\' needs barely moved: "have changed little from those" [S1].', False),
    # a magnitude denied where it stands says nothing ("not substantially")
    (
        "opposite_magnitude",
        "cats.txt",
        'The gains are not slight: "its ability can be substantially increased" [S1].',
        False,
    ),
    (
        "opposite_magnitude",
        "bau_de.txt",
        "Laut dem Bericht sind die Kosten für den Neubau nur geringfügig gestiegen: „sind im letzten Jahr "
        "deutlich gestiegen“ [S1].",
        True,
    ),
    (
        "opposite_magnitude",
        "bau_de.txt",
        "Laut dem Bericht sind die Kosten für den Neubau erheblich gestiegen: „sind im letzten Jahr deutlich "
        "gestiegen“ [S1].",
        False,
    ),
    # claim_direction: "not only" denies nothing; "heighten" is a rise
    (
        "claim_direction",
        "resources.txt",
        'Keeping resources apart heightens competition: "Separation of resources in Zürich not only reduces the '
        'risk of competition" [S1].',
        True,
    ),
    (
        "claim_direction",
        "resources.txt",
        'Keeping resources apart lessens competition: "Separation of resources in Zürich not only reduces the '
        'risk of competition" [S1].',
        False,
    ),
    # opposite_degree: a grading word before an adverb grades the word after it too
    (
        "opposite_degree",
        "pairs.txt",
        'It starts building from the least connected pair, "taking the most strongly connected pair first" [S1].',
        True,
    ),
    (
        "opposite_degree",
        "pairs.txt",
        'It starts building from the most connected pair, "taking the most strongly connected pair first" [S1].',
        False,
    ),
    # covariate_direction: a change said with what it goes with
    (
        "covariate_direction",
        "batch.txt",
        'Accuracy drops as batches get larger: "accuracy consistently improves as the batch size grows" [S1].',
        True,
    ),
    (
        "covariate_direction",
        "batch.txt",
        'Accuracy rises as batches get larger: "accuracy consistently improves as the batch size grows" [S1].',
        False,
    ),
    (
        "covariate_direction",
        "lote_es.txt",
        "Según el informe, la precisión disminuye cuando el tamaño del lote aumenta: «la precisión mejora cuando "
        "el tamaño del lote aumenta» [S1].",
        True,
    ),
    # quantifier_scope: every case, or one alone, where the quote speaks of some, or of an example
    (
        "quantifier_scope",
        "algos.txt",
        'Every algorithm rests on such assumptions: "Some algorithms in Zürich directly try to find models" [S1].',
        True,
    ),
    (
        "quantifier_scope",
        "algos.txt",
        'The sigmoid is the only activation used: "One example of such an activation function is the sigmoid '
        'function" [S1].',
        True,
    ),
    (
        "quantifier_scope",
        "algos.txt",
        'Not every algorithm is general: "Some algorithms in Zürich directly try to find models" [S1].',
        False,
    ),
    (
        "quantifier_scope",
        "algos.txt",
        'The sigmoid is one such function: "One example of such an activation function is the sigmoid function" [S1].',
        False,
    ),
    (
        "quantifier_scope",
        "algos_de.txt",
        "Für die Praxis ist es wichtig zu wissen, dass alle Algorithmen bekannte Verteilungen voraussetzen: "
        "„Einige Algorithmen, die in München entwickelt wurden, setzen bekannte Verteilungen voraus“ [S1].",
        True,
    ),
    # number_sign: a figure the claim writes with a minus sign, unsigned in the source
    (
        "number_sign",
        "corr.txt",
        'The two moved apart, at −0.42: "the correlation between rainfall and sales was 0.42 over the period" [S1].',
        True,
    ),
    (
        "number_sign",
        "corr.txt",
        'The two moved together, at 0.42: "the correlation between rainfall and sales was 0.42 over the period" [S1].',
        False,
    ),
    # an accounts' bracket, or a fall the sentence names, may be the sign in other words
    ("number_sign", "corr.txt", 'The balance was −1,200: "The balance was (1,200) at year end" [S1].', False),
    (
        "number_sign",
        "corr.txt",
        'It was −5 degrees against normal: "Temperatures fell to 5 degrees below normal in Zürich" [S1].',
        False,
    ),
    # proportion_words: a share in words against the share the quote's sentence states
    (
        "proportion_words",
        "survey.txt",
        'The scale was used by most of the surveyed papers: "the most common choice in our Zürich survey (18 out '
        'of 38 papers)" [S1].',
        True,
    ),
    (
        "proportion_words",
        "survey.txt",
        'Nearly half of the surveyed papers used it: "the most common choice in our Zürich survey (18 out of 38 '
        'papers)" [S1].',
        False,
    ),
    (
        "proportion_words",
        "survey.txt",
        'Muscle is about a third of a newborn\'s weight: "accounts for 18 to 24 percent of a baby’s body weight" [S1].',
        True,
    ),
    (
        "proportion_words",
        "survey.txt",
        "Muscle is about a quarter of a newborn's weight: \"accounts for 18 to 24 percent of a baby’s body "
        'weight" [S1].',
        False,
    ),
    # a percentage of a change is no share of anything, nor is a year a whole
    (
        "proportion_words",
        "survey.txt",
        'Most of the survey falls under one rule: "Section 3 of 2019 covers the Zürich survey" [S1].',
        False,
    ),
    ("proportion_words", "survey.txt", 'Most of the growth came late: "Revenue rose 15% in 2023" [S1].', False),
    # a part counted after its whole, with "only": the share of the two counts
    (
        "proportion_words",
        "agreement.txt",
        'Nearly all such studies report agreement: "While 33 papers in Zürich report using multiple annotators '
        'per summary, only 12 report agreement" [S1].',
        True,
    ),
    (
        "proportion_words",
        "agreement.txt",
        'About a third of such studies report agreement: "While 33 papers in Zürich report using multiple '
        'annotators per summary, only 12 report agreement" [S1].',
        False,
    ),
    (
        "proportion_words",
        "umfrage_de.txt",
        "Weniger als die Hälfte der Ämter hat geantwortet: „Die Umfrage ging an 40 Ämter in München, und davon "
        "haben nur 30 die Fragen der Stadt beantwortet“ [S1].",
        True,
    ),
    (
        "proportion_words",
        "umfrage_de.txt",
        "Die meisten Ämter haben geantwortet: „Die Umfrage ging an 40 Ämter in München, und davon "
        "haben nur 30 die Fragen der Stadt beantwortet“ [S1].",
        False,
    ),
    (
        "proportion_words",
        "survey.txt",
        'Fewer than half of the papers chose it: "the most common choice in our Zürich survey (18 out of 38 '
        'papers)" [S1].',
        False,
    ),
    (
        "proportion_words",
        "inhalt_de.txt",
        "Laut dem Vorwort ist nur ein kleiner Teil der Inhalte aus dem Workshop: „Die meisten der hier "
        "dargelegten Inhalte sind das Ergebnis eines Workshops“ [S1].",
        True,
    ),
    (
        "proportion_words",
        "inhalt_de.txt",
        "Laut dem Vorwort ist die Mehrheit der Inhalte aus dem Workshop: „Die meisten der hier dargelegten "
        "Inhalte sind das Ergebnis eines Workshops“ [S1].",
        False,
    ),
    # a quote run into the claim: the claim's own words, with no negation or negative word of their
    # own, assert what the quote denies (a label before a colon asserts nothing)
    (
        "claim_polarity",
        "scoring.txt",
        "The evaluation gives partial credit for close answers, counting an instance as correct "
        '"if it exactly matches the gold annotation, with no credit for partial matching" [S1].',
        True,
    ),
    # (the second part of a hyphenated compound says nothing negative: "near-misses")
    (
        "claim_polarity",
        "scoring.txt",
        "- **Scoring:** The evaluation gives partial credit for near-misses in Zürich, counting an instance as "
        'correct "if it exactly matches the gold annotation, with no credit for partial matching" [S1].',
        True,
    ),
    (
        "claim_polarity",
        "scoring.txt",
        "Few near-misses earn credit in Zürich, an instance counting as correct "
        '"if it exactly matches the gold annotation, with no credit for partial matching" [S1].',
        False,
    ),
    (
        "claim_polarity",
        "scoring.txt",
        "- **Credit:** an instance counts as correct "
        '"if it exactly matches the gold annotation, with no credit for partial matching" [S1].',
        False,
    ),
    # lead_denial: an item of a list whose lead-in denies its items
    (
        "lead_denial",
        "days.txt",
        'Commuting days count as presence: "Days you commute to work from a residence in Canada or Mexico" [S1].',
        True,
    ),
    (
        "lead_denial",
        "days.txt",
        'Commuting days do not count as presence: "Days you commute to work from a residence in Canada or '
        'Mexico" [S1].',
        False,
    ),
    # claim_denial: the claim denies what the source asserts, unless the passage denies it elsewhere
    (
        "claim_denial",
        "mail.txt",
        'Do not mail the form: "the signed form to the Zürich office within 30 days of the hearing" [S1].',
        True,
    ),
    (
        "claim_denial",
        "mail.txt",
        'You mail the form: "the signed form to the Zürich office within 30 days of the hearing" [S1].',
        False,
    ),
    # a claim that only says who says the quote says what the sentence's uncited clause before it says
    (
        "claim_denial",
        "mail.txt",
        "You never mail the form to the office; the handbook says that you should "
        '"Mail the signed form to the Zürich office within 30 days of the hearing" [S1].',
        True,
    ),
    (
        "claim_denial",
        "mail.txt",
        "Forms sent by fax are not accepted; the handbook says that you should "
        '"Mail the signed form to the Zürich office within 30 days of the hearing" [S1].',
        False,
    ),
    (
        "claim_denial",
        "address.txt",
        "Don't mail applications to the Zürich office: sending one there "
        '"will significantly delay application processing" [S1].',
        False,
    ),
    # a claim that denies a word agrees with a source that says its opposite ("do not differ" of
    # "identical"); where the source says neither, the denial is held against the word
    (
        "claim_denial",
        "classes.txt",
        'The classes do not differ in their voting rights: "All eleven share classes of the Zürich fund '
        'have identical voting and dividend rights" [S1].',
        False,
    ),
    (
        "claim_denial",
        "classes.txt",
        'The classes do not differ in what they charge: "the classes bear different distribution fees" [S1].',
        True,
    ),
    # a negation's reach ends with its clause: "not:" denies nothing after the colon
    (
        "claim_denial",
        "tempo.txt",
        'Nicht ganz: Das neue Modell "ist langsamer als das Basismodell" [S1].',
        False,
    ),
    # negated_claim: a negation right before the quote, where no target can be held against
    (
        "negated_claim",
        "plan.txt",
        'The handbook does not say that "a member may attend at most one hearing per event" [S1].',
        True,
    ),
    (
        "negated_claim",
        "plan.txt",
        'The handbook says that "a member may attend at most one hearing per event" [S1].',
        False,
    ),
    # restated_denial: the claim's own words assert what the source denies in other words
    (
        "restated_denial",
        "plan.txt",
        'Contractors get the staff passwords: "Staff must not share passwords with contractors" [S1].',
        True,
    ),
    (
        "restated_denial",
        "plan.txt",
        'Contractors never get the staff passwords: "Staff must not share passwords with contractors" [S1].',
        False,
    ),
    # words of one sense count as one ("additional" of "further": Language.same_sense)
    (
        "restated_denial",
        "decode.txt",
        'The decoder works under additional hand-written constraints: "finds the most likely sequence with '
        'Viterbi decoding, with no further constraints" [S1].',
        True,
    ),
    (
        "restated_denial",
        "decode.txt",
        'The decoder adds no extra constraints: "finds the most likely sequence with Viterbi decoding, with no '
        'further constraints" [S1].',
        False,
    ),
    # ... and with the quote run into the claim's sentence, where its own words plainly assert
    (
        "restated_denial",
        "plan.txt",
        'Contractors in Zürich get the staff passwords, since staff "must not share passwords with contractors" [S1].',
        True,
    ),
    (
        "restated_denial",
        "plan.txt",
        'Few contractors in Zürich get the staff passwords, as staff "must not share passwords with contractors" [S1].',
        False,
    ),
    (
        "restated_denial",
        "plan.txt",
        '- **Contractors and passwords:** staff "must not share passwords with contractors" [S1].',
        False,
    ),
    # claim_direction: a rise said of a fall
    (
        "claim_direction",
        "plan.txt",
        'Complaints rose after the reform: "Complaints fell sharply after the reform of the Zürich office" [S1].',
        True,
    ),
    (
        "claim_direction",
        "plan.txt",
        'Complaints dropped after the reform: "Complaints fell sharply after the reform of the Zürich office" [S1].',
        False,
    ),
    # a quote that opens with a negating conjunction is a statement, not an instruction
    (
        "denied_beside",
        "guide.txt",
        "Where the guidance conflicts with existing rules, it takes precedence over the Secretary: "
        '"Nor should these guidelines be interpreted as altering or superseding the existing authorities" [S1].',
        True,
    ),
    # a word that says "none" or "not the same" in itself restates the quote's denial
    (
        "denied_beside",
        "clusters.txt",
        'Of the removed clusters, the large majority were essentially empty: "80.0M of these filtered clusters '
        'have no associated abstract or PDF" [S1].',
        False,
    ),
    (
        "denied_beside",
        "clusters.txt",
        "The age of the Universe varies from place to place in these models: "
        '"Once inhomogeneities are present the age of the Universe is not everywhere the same" [S1].',
        False,
    ),
    (
        "denied_beside",
        "clusters.txt",
        "Of the removed clusters, the large majority came with full metadata and files: "
        '"80.0M of these filtered clusters have no associated abstract or PDF" [S1].',
        True,
    ),
    # a negative word of the claim's own ("absent", "unsupported" of "support") restates a denial
    (
        "claim_polarity",
        "trial.txt",
        'Adverse events were reported in both groups: "No adverse events were reported in either group" [S1].',
        True,
    ),
    (
        "claim_polarity",
        "trial.txt",
        'Adverse events were absent in both groups: "No adverse events were reported in either group" [S1].',
        False,
    ),
    (
        "denied_beside",
        "trial.txt",
        'Scans without text are unsupported by it: "The tool does not support scanned documents" [S1].',
        False,
    ),
    (
        "denied_beside",
        "trial.txt",
        'Scans without text are handled by it: "The tool does not support scanned documents" [S1].',
        True,
    ),
    # opposite_words: one of two opposites in the claim, the other in the quote; a comparison
    # whose two sides are swapped agrees
    # swapped_comparison: the quote's grading given to what its "than" puts second
    (
        "swapped_comparison",
        "spurt.txt",
        'Girls end up with the bigger spurt: "Adolescent boys in Zürich experience larger growth spurts than '
        'adolescent girls" [S1].',
        True,
    ),
    (
        "swapped_comparison",
        "spurt.txt",
        'Boys end up with the bigger spurt: "Adolescent boys in Zürich experience larger growth spurts than '
        'adolescent girls" [S1].',
        False,
    ),
    (
        "swapped_comparison",
        "spurt.txt",
        'Compared with girls, boys end up with the bigger spurt: "Adolescent boys in Zürich experience larger '
        'growth spurts than adolescent girls" [S1].',
        False,
    ),
    (
        "swapped_comparison",
        "spurt.txt",
        'Girls end up with bigger feet, and "Adolescent boys in Zürich experience larger growth spurts than '
        'adolescent girls" [S1].',
        False,
    ),
    (
        "swapped_comparison",
        "tempo.txt",
        'Das Basismodell ist langsamer: "Das neue Modell ist langsamer als das Basismodell" [S1].',
        True,
    ),
    (
        "swapped_comparison",
        "tempo.txt",
        'Das neue Modell ist langsamer: "Das neue Modell ist langsamer als das Basismodell" [S1].',
        False,
    ),
    (
        "opposite_words",
        "speed.txt",
        'The new model is faster than the baseline: "The new model is slower than the baseline on long" [S1].',
        True,
    ),
    (
        "opposite_words",
        "speed.txt",
        'The baseline is faster than the new model: "The new model is slower than the baseline on long" [S1].',
        False,
    ),
    (
        "opposite_words",
        "speed.txt",
        'In small samples it underestimates it: "The method overestimates the true effect in small samples" [S1].',
        True,
    ),
    (
        "opposite_words",
        "speed.txt",
        'The method does not underestimate it: "The method overestimates the true effect in small samples" [S1].',
        False,
    ),
    (
        "opposite_words",
        "tempo.txt",
        'Das neue Modell ist schneller: "Das neue Modell ist langsamer als das Basismodell" [S1].',
        True,
    ),
    (
        "opposite_words",
        "tempo.txt",
        'Das Basismodell ist schneller: "Das neue Modell ist langsamer als das Basismodell" [S1].',
        False,
    ),
    # opposite_degree: a word the claim grades one way, the source only the other
    (
        "opposite_degree",
        "costs.txt",
        'Fixed embeddings make it more costly: "Fixed embeddings from the Zürich model make the pipeline" [S1].',
        True,
    ),
    (
        "opposite_degree",
        "costs.txt",
        'The low-variance benefit stays: "Partial annotation keeps a high correlation with the full set" [S1].',
        True,
    ),
    (
        "opposite_degree",
        "kosten.txt",
        'Der Betrieb wird mehr kostspielig: "Die festen Einbettungen machen den Betrieb in Zürich" [S1].',
        True,
    ),
    (
        "opposite_degree",
        "costs.txt",
        'Fixed embeddings make it less costly: "Fixed embeddings from the Zürich model make the pipeline" [S1].',
        False,
    ),
    (
        "opposite_degree",
        "costs.txt",
        "It is more costly to train than to run, as the paper says: "
        '"Fixed embeddings from the Zürich model make the pipeline" [S1].',
        False,
    ),
    # row_trend: a rise said of a row whose figures fall under the header's years, or do not change
    ("row_trend", "applicants.txt", 'Applicants in the North rose every year: "North 820 760 705 640" [S1].', True),
    ("row_trend", "applicants.txt", 'Applicants in the North fell every year: "North 820 760 705 640" [S1].', False),
    ("row_trend", "applicants.txt", 'Applicants in the South rose every year: "South 410 410 410 410" [S1].', True),
    # denied_beside: a statement of the claim's own, set off from a quote that denies, holds no negation
    (
        "denied_beside",
        "plan.txt",
        'Retirees get a yearly cleaning from the plan: "does not cover a yearly dental cleaning for retirees" [S1].',
        True,
    ),
    (
        "denied_beside",
        "regime.txt",
        "The French plan gives every retiree in Zürich a yearly cleaning at the dentist: "
        '"ne couvre pas un détartrage annuel pour les retraités" [S1].',
        True,
    ),
    (
        "denied_beside",
        "plan.txt",
        'The plan excludes cleanings for retirees: "does not cover a yearly dental cleaning for retirees" [S1].',
        False,
    ),
    (
        "denied_beside",
        "plan.txt",
        'Retirees get no cleaning from the plan: "does not cover a yearly dental cleaning for retirees" [S1].',
        False,
    ),
    # claim_numbers: an amount inside the range a chained row opens with is the row's; a number with a
    # word that measures nothing, as the document writes it, is a name ("the 2007 Tax Table")
    ("claim_numbers", "tax.txt", 'An income of $1,130 owes $114 in Zürich: "1,125 1,150 114" [S1].', False),
    ("claim_numbers", "tax.txt", 'An income of $1,190 owes $114 in Zürich: "1,125 1,150 114" [S1].', True),
    ("claim_numbers", "tax.txt", 'The 2007 Tax Table gives $114 for Zürich: "1,125 1,150 114" [S1].', False),
    ("claim_numbers", "tax.txt", 'The 2008 Tax Table gives $114 for Zürich: "1,125 1,150 114" [S1].', True),
    ("claim_numbers", "sp.txt", 'NIST SP 800-223 in Zürich was "approved by the board on 2024-02-02" [S1].', False),
    ("claim_numbers", "sp.txt", 'NIST SP 800-233 in Zürich was "approved by the board on 2024-02-02" [S1].', True),
    # opposite_degree: a comparison only in a sentence the quote's runs on into grades nothing of the
    # quote's; one in the quote's own clause may grade the word both ways and agree
    (
        "opposite_degree",
        "variance.txt",
        'Partial annotation keeps the low-variance benefit: "Partial annotation has a high correlation to full '
        'annotation, but higher variance" [S1].',
        True,
    ),
    (
        "opposite_degree",
        "variance.txt",
        'Partial annotation shows more variance: "Full annotation shows less variance than partial annotation" [S1].',
        False,
    ),
    # claim_numbers: a claim comparing the quoted row with another row of its table (table_comparison);
    # a figure no row states, or another row's figure without a comparison, is not backed
    ("claim_numbers", "ergebnisse.txt", 'BM25 is better on SQuAD (38.1 vs 29.8): "BM25 32.6 38.1" [S1].', False),
    ("claim_numbers", "ergebnisse.txt", 'BM25 is better on SQuAD (38.1 vs 27.8): "BM25 32.6 38.1" [S1].', True),
    ("claim_numbers", "ergebnisse.txt", 'BM25 scores 29.8 on SQuAD: "BM25 32.6 38.1" [S1].', True),
    # claim_numbers: an index entry is its dot leader's page numbers (dot_leaders)
    ("claim_numbers", "index.txt", '"Kindergeld" steht im Index auf 20 und 23 [S1].', False),
    ("claim_numbers", "index.txt", '"Kindergeld" steht im Index auf 20 und 32 [S1].', True),
    ("row_trend", "forecast.txt", 'The P/E multiple in Zürich rises: "P/E 82.90 30.47 20.02 15.38" [S1].', True),
    ("row_trend", "forecast.txt", 'The P/E multiple in Zürich falls: "P/E 82.90 30.47 20.02 15.38" [S1].', False),
    # row_steps: a row said to move one way at every step rises and falls, whichever way it runs
    ("row_steps", "applicants.txt", 'Applicants in the East rose every year: "East 300 340 360 350" [S1].', True),
    ("row_steps", "applicants.txt", 'Applicants in the East rose: "East 300 340 360 350" [S1].', False),
    ("row_steps", "applicants.txt", 'Applicants in the North fell every year: "North 820 760 705 640" [S1].', False),
    ("row_steps", "roe.txt", '净资产收益率逐年上升："净资产收益率 6.0% 15.0% 27.9% 28.8% 26.5%" [S1]。', True),
    # row_change: a rise or fall said of a row of two periods, against the later figure and the earlier
    ("row_change", "bilan.txt", 'Other receivables fell sharply: "其他应收款 18,267,606.14 3,123,072.43" [S1].', True),
    ("row_change", "bilan.txt", 'Other receivables rose sharply: "其他应收款 18,267,606.14 3,123,072.43" [S1].', False),
    # a loss "narrows" as its (negative) figure rises
    ("row_change", "bilan.txt", 'The net loss narrowed: "净利润 -4,831,324.09 -15,714,409.94" [S1].', False),
    ("row_change", "bilan.txt", 'The net loss widened: "净利润 -4,831,324.09 -15,714,409.94" [S1].', True),
    ("row_change", "umsatz.txt", 'Sales in Zürich rose: "Zürich 1,250 1,410" [S1].', True),
    ("row_change", "umsatz.txt", 'Sales in Zürich fell: "Zürich 1,250 1,410" [S1].', False),
    ("row_change", "changes.txt", 'Prepayments fell: "预付款项 2,436,695.05 1,878,311.93 29.73%" [S1].', True),
    ("row_change", "changes.txt", 'Prepayments increased: "预付款项 2,436,695.05 1,878,311.93 29.73%" [S1].', False),
]

#: (check, document, answer, required_terms, fires) for checks of what an answer document asks for
TERM_CASES: list[tuple[str, str, str, list[str], bool]] = [
    ("required_terms", "plan.txt", "The fee for each hearing is 45 dollars", ["refunded", "30 days"], False),
    ("required_terms", "plan.txt", "The fee for each hearing is 45 dollars", ["refunded", "60 days"], True),
    ("required_terms", "tarif.txt", "umfasst keine jährliche Zahnreinigung", ["zahnreinigung fur rentner"], False),
]


@pytest.mark.parametrize(("check", "uri", "answer", "fires"), CHECK_CASES)
def test_a_check_fires_where_it_must_and_nowhere_else(
    store: Store, check: str, uri: str, answer: str, fires: bool
) -> None:
    flag = next(c.flag for c in CHECKS if c.name == check)
    # where it must fire, on its own: the other checks that raise the same flag are off (two checks
    # may both see one misreading); where it must not, no check raises its flag
    others = frozenset(c.name for c in CHECKS if c.flag == flag and c.name != check) if fires else frozenset()
    on = judge(store, uri, answer, disabled=others)
    off = judge(store, uri, answer, disabled=others | {check})
    assert on["status"] == "verified", on["reason"]
    assert (flag in on["flags"]) is fires, on["reason"]
    assert on["passed"] is not fires, on["reason"]
    # switched off, the check's flag goes (it was this check that raised it) and the quote still verifies
    assert off["status"] == "verified"
    assert flag not in off["flags"], off["reason"]
    assert off["passed"], off["reason"]


@pytest.mark.parametrize(("check", "uri", "quote", "terms", "fires"), TERM_CASES)
def test_required_terms_fire_where_a_term_is_missing(
    store: Store, check: str, uri: str, quote: str, terms: list[str], fires: bool
) -> None:
    answer = f'It says "{quote}" [S1].'
    on = judge(store, uri, answer, quote=quote, required_terms=terms)
    off = judge(store, uri, answer, disabled=frozenset({check}), quote=quote, required_terms=terms)
    assert ("missing_terms" in on["flags"]) is fires, on["reason"]
    assert "missing_terms" not in off["flags"]
    assert off["passed"]


def test_location_fires_where_the_answer_places_the_quote_elsewhere(store: Store) -> None:
    chunk_id = chunk(store, "plan.txt")
    text = next(iter(store.iter_chunks(document="plan.txt"))).text
    quote = "The fee for each hearing is 45 dollars"
    at = text.index(quote)

    def cited(start: int, disabled: frozenset[str] = frozenset()) -> dict[str, Any]:
        data = {
            "content": [
                {
                    "type": "text",
                    "text": "Each hearing costs 45 dollars (Zürich rules).",
                    "citations": [
                        {
                            "type": "char_location",
                            "document_index": 0,
                            "cited_text": quote,
                            "start_char_index": start,
                            "end_char_index": start + len(quote),
                        }
                    ],
                }
            ],
            "documents": [chunk_id],
        }
        options = VerifyOptions(log=False, disabled=disabled)
        (c,) = verify_answer(store, data, options=options).as_json()["citations"]
        return c  # type: ignore[no-any-return]

    assert cited(at)["flags"] == []
    assert cited(0)["flags"] == ["location_mismatch"]
    assert cited(0, frozenset({"location"}))["flags"] == []


# ---------------------------------------------------------------------------- the difference rules

#: (rule, document, answer, fires): a quote that differs from the source in a number, a negation or a
#: symbol is altered; with the rule switched off, the difference is noise (verified_fuzzy)
RULE_CASES: list[tuple[str, str, str, bool]] = [
    ("quote_numbers", "plan.txt", 'It says "The fee for each hearing is 46 dollars" [S1].', True),
    ("quote_numbers", "plan.txt", 'It says "The fee for each hearing is 45 dollars" [S1].', False),
    ("quote_negation", "plan.txt", 'It says "Staff must share passwords with contractors" [S1].', True),
    (
        "quote_negation",
        "service_ko.txt",
        '회원은 "이 서비스는 모든 회원에게 무료로 제공되며 매월 청구됩니다" [S1].',
        True,
    ),
    ("quote_negation", "plan_zh.txt", "方案 “该方案不可能在明年由市政府全面实施” [S1]。", True),
    ("quote_negation", "plan.txt", 'It says "Such use is lawful in every member state" [S1].', True),
    ("quote_negation", "plan.txt", 'It says "Staff must not share passwrods with contractors" [S1].', False),
    ("quote_symbols", "plan.txt", 'It says "Delays ≥ 5 days are waived" [S1].', True),
    ("quote_symbols", "plan.txt", 'It says "Delays ≤ 5 days are waived" [S1].', False),
]


@pytest.mark.parametrize(("rule", "uri", "answer", "fires"), RULE_CASES)
def test_a_difference_rule_makes_a_quote_altered_and_off_is_noise(
    store: Store, rule: str, uri: str, answer: str, fires: bool
) -> None:
    on = judge(store, uri, answer)
    off = judge(store, uri, answer, disabled=frozenset({rule}))
    if fires:
        assert (on["status"], on["passed"]) == ("quote_altered", False), on["reason"]
        assert off["status"] == "verified_fuzzy", off["reason"]
    else:
        assert on["status"] in ("verified", "verified_fuzzy"), on["reason"]
        assert on["passed"], on["reason"]
        assert off["status"] == on["status"]


# ------------------------------------------------------------------------------ the reading rules

#: (rule, document, answer, passed, passed with the rule off): where a quote and its sentence are
READING_CASES: list[tuple[str, str, str, bool, bool]] = [
    # source_ellipsis: the source's own ". . ." is quoted, not an elision (off: its parts are too short)
    (
        "source_ellipsis",
        "requete.txt",
        'Selon S1, "Une requête q sur C est un multi-ensemble de références q = R1 × . . . × Rn" [S1].',
        True,
        False,
    ),
    (
        "source_ellipsis",
        "requete.txt",
        'Selon S1, "Une requête q sur C est un multi-ensemble de références q = R1 × . . . × Rm" [S1].',
        False,
        False,
    ),
    # table_comparison: off, the other row's figure is not the quote's
    (
        "table_comparison",
        "ergebnisse.txt",
        'BM25 gewinnt bei SQuAD (38.1 vs 29.8): "BM25 32.6 38.1" [S1].',
        True,
        False,
    ),
    # dot_leaders: "Kindergeld . . . 20, 23" is one entry (off, the leader's stops cut 23 away from it)
    ("dot_leaders", "index.txt", 'Laut Index steht "Kindergeld" auf 20 und 23 [S1].', True, False),
    ("dot_leaders", "index.txt", 'Laut Index steht "Kindergeld" auf 20 und 31 [S1].', False, False),
]


@pytest.mark.parametrize(("rule", "uri", "answer", "passed", "passed_off"), READING_CASES)
def test_a_reading_rule_reads_where_the_quote_is(
    store: Store, rule: str, uri: str, answer: str, passed: bool, passed_off: bool
) -> None:
    assert judge(store, uri, answer)["passed"] is passed
    assert judge(store, uri, answer, disabled=frozenset({rule}))["passed"] is passed_off


def test_an_unknown_check_is_a_usage_error_of_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no check is named 'claim_colour'"):
        VerifyOptions(disabled=frozenset({"claim_colour"}))
    answer = tmp_path / "a.json"
    answer.write_text('{"answer": "x", "sources": {}}', encoding="utf-8")
    done = CliRunner().invoke(
        cli, ["--db", f"sqlite:///{tmp_path / 'e.db'}", "verify", str(answer), "--disable", "claim_colour"]
    )
    assert done.exit_code == 2
    assert done.output.startswith("Error: no check is named 'claim_colour' (checks: claim_numbers,")
    assert done.output.count("\n") == 1


def test_disable_on_the_command_line_switches_checks_off(tmp_path: Path, store: Store) -> None:
    answer = tmp_path / "a.json"
    answer.write_text(
        '{"answer": "The plan covers \\"a yearly dental cleaning for retirees\\" [S1]. Complaints rose after '
        'the reform: \\"Complaints fell sharply after the reform of the Zürich office\\" [S1].", '
        f'"sources": {{"S1": "{chunk(store, "plan.txt")}"}}}}',
        encoding="utf-8",
    )
    db = ["--db", str(store.url)]
    import json

    def flags(*extra: str) -> list[list[str]]:
        done = CliRunner().invoke(cli, [*db, "verify", str(answer), "--no-log", *extra])
        return [c["flags"] for c in json.loads(done.output)["citations"]]

    assert flags() == [["negation_mismatch"], ["direction_mismatch"]]
    off = ("claim_polarity", "claim_direction", "antonyms", "opposite_attribute")
    assert flags("--disable", ",".join(off)) == [[], []]
    assert flags(*(arg for name in off for arg in ("--disable", name))) == [[], []]
    assert flags("--disable", ",".join(off[1:])) == [["negation_mismatch"], []]


# ------------------------------------------------------------------ what issue 31's writers found

#: (document, answer, passed): each kind of misjudgement issue 31 reports, as its writers wrote it
KINDS: list[tuple[str, str, bool]] = [
    # an item of a list run into its sentence is what the list's lead-in says of it: prohibited
    (
        "order.txt",
        'Müller may not engage in (a) "uploading any source code of the firm on any website, server or domain" [S1].',
        True,
    ),
    (
        "order.txt",
        'Item (b) covers "disclosing any source code of the firm to any other person" [S1].',
        True,
    ),
    # a table row's period, unit and total are the table's: its caption, header and row back them
    (
        "checks.txt",
        'Kentucky ran 295,891 checks in November 2015: "Kentucky 264,140 12,155 14,847 254 648" [S1].',
        True,
    ),
    (
        "checks.txt",
        'Kentucky ran 295,981 checks in November 2015: "Kentucky 264,140 12,155 14,847 254 648" [S1].',
        False,
    ),
    # a faithful negated quote in single quotes after "No —", with a [bracketed] word, over a
    # line-break hyphen the cleaner joined
    (
        "plan.txt",
        "Is cleaning covered? No — the plan 'does not cover a yearly dental cleaning for retirees' [S1].",
        True,
    ),
    ("plan.txt", 'The insurer says "[t]he plan that we offer does not cover a yearly dental cleaning" [S1].', True),
    ("plan.txt", 'Use of this kind is barred: "Such use is unlawful in every member state" [S1].', True),
    ("plan.txt", "Can staff share passwords? No: 'Staff must not share passwords with contractors' [S1].", True),
    # a negation reaches over the words it governs ("not cover a yearly dental cleaning")
    (
        "plan.txt",
        'Retirees get no dental cleaning: the plan "does not cover a yearly dental cleaning for retirees" [S1].',
        True,
    ),
    # a claim whose own words contradict its quote's number
    (
        "plan.txt",
        'Members may attend at most twice per event: "A member may attend at most one hearing per event" [S1].',
        False,
    ),
    (
        "plan.txt",
        'Members may attend only once per event: "A member may attend at most one hearing per event" [S1].',
        True,
    ),
    ("plan.txt", 'Each hearing costs 54 dollars, as "The fee for each hearing is 45 dollars" [S1].', False),
    # a relative clause carries the negation: the claim asserts what the source denies, in four languages
    ("plan.txt", 'The plan covers "a yearly dental cleaning for retirees" [S1].', False),
    ("plan.txt", 'The plan covers "the yearly dental cleaning for retirees" [S1].', False),
    ("tarif.txt", 'Der Tarif umfasst "eine jährliche Zahnreinigung für Rentner" [S1].', False),
    ("tarif.txt", 'Der Tarif umfasst keine "jährliche Zahnreinigung für Rentner" [S1].', True),
    ("regime.txt", 'Le régime couvre "un détartrage annuel pour les retraités" [S1].', False),
    ("regime.txt", 'Le régime ne couvre pas "un détartrage annuel pour les retraités" [S1].', True),
    ("plan_es.txt", 'El plan cubre "una limpieza dental anual para los jubilados" [S1].', False),
    ("plan_es.txt", 'El plan no cubre "una limpieza dental anual para los jubilados" [S1].', True),
    # one character that flips meaning is never a typo (Korean 유료 "paid" as 무료 "free")
    ("service_ko.txt", '회원은 "이 서비스는 모든 회원에게 무료로 제공되며 매월 청구됩니다" [S1].', False),
    ("service_ko.txt", '회원은 "이 서비스는 모든 회원에게 유료로 제공되며 매월 청구됩니다" [S1].', True),
]


@pytest.mark.parametrize(("uri", "answer", "passed"), KINDS)
def test_the_kinds_issue_31_found(store: Store, uri: str, answer: str, passed: bool) -> None:
    c = judge(store, uri, answer)
    assert c["passed"] is passed, (c["status"], c["flags"], c["reason"])


@pytest.mark.parametrize(
    ("lead", "code", "denies"),
    [
        ("Do not count the following days as days of presence in Zürich:", "en", True),
        ("In general, do not count the following as days of presence.", "en", True),
        # a negation in a clause of its own denies no item
        ("For deliveries for which a PO Box cannot be used, please use the following street address:", "en", False),
        ("Briefly explain why the patient (Müller) cannot sign:", "en", False),
        # a condition's items are conditions: its negation is the consequence's
        ("But if either 1 or 2 below applies, enter -0- on line 16b; you do not have to see Form 8606.", "en", False),
        ("Zählen Sie die folgenden Tage nicht als Aufenthaltstage:", "de", True),
        ("Les frais suivants ne sont pas remboursés :", "fr", True),
        ("Veuillez expliquer pourquoi le patient ne peut pas signer :", "fr", False),
    ],
)
def test_a_list_lead_in_denies_its_items_only_in_its_own_clause(lead: str, code: str, denies: bool) -> None:
    from citeline.text.lang import of
    from citeline.verify.checks.polarity import lead_denies

    assert lead_denies(lead, of(code)) is denies


@pytest.mark.parametrize(
    ("code", "text", "item", "lead"),
    [
        (
            "en",
            "Defendant Müller is prohibited from: (a) uploading any code; (b) disclosing it; and (c) using keys.",
            "using keys",
            "Defendant Müller is prohibited from:",
        ),
        (
            "fr",
            "Il est interdit à M. Lefèvre de : a) publier le code ; b) le divulguer ; et c) utiliser les clés.",
            "utiliser les clés",
            "Il est interdit à M. Lefèvre de :",
        ),
        # a list's later item joined by a coordinator of another language is no item of the list
        ("en", "Müller is prohibited from: (a) uploading any code; und (b) disclosing it.", "disclosing", ""),
        # a parenthesised letter in prose after a colon, without earlier items, is the first item
        ("en", "Note: (a) the fee for Zürich is due.", "the fee", "Note:"),
    ],
)
def test_a_list_run_into_its_sentence_has_its_lead_in(code: str, text: str, item: str, lead: str) -> None:
    from citeline.text.lang import of
    from citeline.verify.claims import lead_in

    assert lead_in(text, text.index(item), of(code)) == lead
