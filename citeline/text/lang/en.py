"""English."""

from __future__ import annotations

from citeline.text.lang import Language, antonyms_of, directions_of, opposites, words

FUNCTION_WORDS = words(
    """
    a an the this that these those then than them they their there here where were we he she it its
    his her him our your you i me my us one on in into onto of off or nor and an as at by for from
    form to too two up upon with within without along among about above below after before over
    under again against all any each both few more most less least some such no not only own same so
    very can could may might must shall should will would is are was be been being has have had do
    does did done if when why how what which who whom whose while though through thorough now new
    near next once per via but yet also else ever even just well still since until till out own
    """
)

LANGUAGE = Language(
    "en",
    abbreviations=words(
        """
        e.g i.e etc vs cf al approx fig figs eq eqs ref refs no nos vol vols pp p ch chap sec secs dr mr
        mrs ms prof st jr sr inc ltd co corp dept univ jan feb mar apr jun jul aug sep sept oct nov dec
        u.s u.k e.u art para a.m p.m comput proc conf trans intl natl assoc lett phys chem sci eng symp
        eds ed mach linguist stat soc acad pub resp est ca
        """
    ),
    months={
        **{
            w: n
            for n, w in enumerate(
                "january february march april may june july august september october november december".split(), 1
            )
        },
        **{w: n for n, w in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)},
        "sept": 9,
    },
    ambiguous_months=words("may mar march"),
    negations=words(
        """
        not no never none nor neither nobody nothing nowhere without cannot can't won't don't doesn't
        didn't isn't aren't wasn't weren't shouldn't wouldn't couldn't mustn't hasn't haven't hadn't
        unable impossible lack lacks lacking
        """
    ),
    negation_suffixes=("n't",),
    negative_prepositions=words("without"),
    reply_no=("no",),
    not_negations=(
        "not only|not just|not merely|no doubt|not surprisingly|not least|not unlike|nonetheless|nevertheless",
        r"not un\w+",
    ),
    compound_negations=("not", "no", "never"),
    negating_prefixes=("non", "un", "in", "im", "il", "ir", "dis", "mis"),
    subordinators=words(
        """
        when whenever if unless because although though while whereas where after before until once since
        as that which who whom whose provided why how whether
        """
    ),
    conditionals=words("if when whenever unless once provided"),
    concessives=words("unlike despite"),
    coordinators=words("and but or nor"),
    clause_conjunctions=words("and but or nor yet so while whereas instead"),
    relatives=words("that which who whom whose"),
    finite_verbs=words("is are was were be has have had will would shall should may might must can could does do did"),
    contrasts=words("but whereas although instead"),
    between=FUNCTION_WORDS | words("always currently necessarily fully entirely completely yet really"),
    light_verbs=words(
        """
        yield yields yielded give gives gave given show shows showed shown find finds found produce produces
        produced provide provides provided reveal reveals revealed reach reaches reached achieve achieves achieved
        observe observes observed offer offers offered display displays displayed exhibit exhibits exhibited
        demonstrate demonstrates demonstrated obtain obtains obtained
        """
    ),
    function_words=FUNCTION_WORDS,
    infinitive=words("to"),
    determiners=words("the a an this these those same each every its their our his her your my"),
    announces=words("following these below follows"),
    says=(
        r"says?|said|states?|stated|notes?|noted|reads?|writes?|wrote|explains?|adds?|puts it|specifies|"
        r"mentions?|reports?|indicates?|concludes?|as follows|follows",
    ),
    lead_ins=("according to|based on|per|as per",),
    attributions=(
        r"says?|said|states?|stated|notes?|noted|puts it|writes?|wrote|reports?|reported|explains?|explained|"
        r"mentions?|mentioned|indicates?|shows?|showed|finds|found|concludes?",
    ),
    endings=words("s es d ed ing ly er ers est 's") | {""},
    contracted_stems={"won": "will", "shan": "shall", "can": "can", "ain": "is"},
    negative_words=words(
        """
        lack lacks lacked lacking absent absence fail fails failed failing failure avoid avoids avoided
        refuse refuses refused prevent prevents prevented prohibit prohibits prohibited forbid forbids
        forbidden exclude excludes excluded excluding omit omits omitted skip skips skipped ignore ignores
        ignored deny denies denied reject rejects rejected free neither none nothing nobody nowhere rarely
        seldom hardly barely little few fewer less least only instead rather except lose loses lost miss
        misses missed missing forgo forgoes forgoing refrain refrains abstain decline declines declined
        unable impossible cease ceases ceased stop stops stopped insufficient inadequate limited beyond
        outside unlike whereas contrast contrary opposed however although though but rare uncommon
        infrequent infrequently scarce scarcely minority unusual exception hidden ban bans banned barred
        withhold withholds withheld exempt exempted optional zero waive waives waived empty devoid vary
        varies varied differ differs differed
        """
    ),
    privative_prefixes=("un", "non"),
    same_sense=(
        "alter chang modif",
        "requi need neede",
        "perfo condu run runs carri",
        "emplo use uses used utili",
        "inclu conta",
        "incre raise rises",
        "reduc decre lower",
        "allow permi enabl",
        "affec influ impac",
        "provi offer",
        "demon show shows",
        "addit furth extra",
    ),
    shortfall=words("lack lacks lacked lacking unable"),
    unchanged=words(
        "remain remains remained stay stays stayed leave leaves unchanged unaltered intact same steady constant"
    ),
    less=words("limited few little insufficient inadequate scarce poor weak lacking short lower less"),
    prohibitions=words(
        """
        prohibit prohibits prohibited prohibiting forbid forbids forbidden enjoin enjoins
        enjoined bar bars barred ban bans banned preclude precludes precluded restrain restrains
        restrained
        """
    ),
    degree_up=words("more most higher high greater larger bigger better increased faster longer"),
    degree_down=words("less least fewer lower low smaller lesser worse reduced decreased slower shorter"),
    rank_top=words("most largest biggest highest greatest top leading"),
    rank_bottom=words("least fewest lowest smallest"),
    than=words("than"),
    comparand_openers=words("than compared versus vs relative whereas unlike"),
    comparisons=words("than compared versus vs relative whereas unlike"),
    antonyms=antonyms_of("en"),
    proportions={
        k.lower(): v
        for k, v in {
            "nearly all": (0.85, 1.0),
            "almost all": (0.85, 1.0),
            "virtually all": (0.9, 1.0),
            "practically all": (0.9, 1.0),
            "most of": (0.51, 1.0),
            "the majority of": (0.51, 1.0),
            "a majority of": (0.51, 1.0),
            "the vast majority": (0.75, 1.0),
            "the bulk of": (0.6, 1.0),
            "more than half": (0.5, 1.0),
            "less than half": (0.0, 0.5),
            "fewer than half": (0.0, 0.5),
            "about half": (0.4, 0.6),
            "roughly half": (0.4, 0.6),
            "around half": (0.4, 0.6),
            "nearly half": (0.38, 0.5),
            "almost half": (0.38, 0.5),
            "half of": (0.45, 0.55),
            "about a third": (0.28, 0.4),
            "roughly a third": (0.28, 0.4),
            "a third of": (0.28, 0.4),
            "one third": (0.28, 0.4),
            "one-third": (0.28, 0.4),
            "two thirds": (0.58, 0.75),
            "two-thirds": (0.58, 0.75),
            "about a quarter": (0.18, 0.32),
            "a quarter of": (0.18, 0.32),
            "one quarter": (0.18, 0.32),
            "three quarters": (0.68, 0.82),
            "three-quarters": (0.68, 0.82),
            "a minority of": (0.0, 0.49),
            "a small share": (0.0, 0.3),
            "a small fraction": (0.0, 0.2),
            "a small minority": (0.0, 0.2),
            "a tiny fraction": (0.0, 0.1),
        }.items()
    },
    ratio_words=frozenset({"out of", "of"}),
    percent_words=frozenset({"%", "percent", "per cent"}),
    share_of=words("of"),
    part_openers=words("only just merely"),
    covariates=frozenset({"as", "when", "whenever"}),
    universal=frozenset({"every", "all", "always", "only", "sole", "solely", "exclusively", "never"}),
    partial=frozenset(
        {
            "some",
            "several",
            "certain",
            "sometimes",
            "often",
            "one example",
            "for example",
            "e.g.",
            "such as",
            "among",
            "one of",
            "in some cases",
        }
    ),
    adverb_suffix="ly",
    magnitudes=opposites(
        "slightly slight marginally marginal modest modestly little barely hardly scarcely "
        "negligible negligibly minimally "
        "| substantially substantial greatly considerably considerable dramatically dramatic "
        "significantly lot lots vastly widely heavily sharply markedly hugely enormously massively"
    ),
    opposites=opposites(
        """
        fast faster fastest quick quicker quickest | slow slower slowest
        better best | worse worst
        outperform outperforms outperformed outperforming | underperform underperforms underperformed underperforming
        overestimate overestimates overestimated | underestimate underestimates underestimated
        overestimating | underestimating
        overestimation overestimations | underestimation underestimations
        overstate overstates overstated | understate understates understated
        positively | negatively
        above | below
        earlier | later
        strong stronger strongest strengthen strengthens strengthened | weak weaker weakest weaken weakens weakened
        easier easiest | harder hardest
        majority | minority
        maximum | minimum
        superior | inferior
        include includes included including inclusion | exclude excludes excluded excluding exclusion
        accept accepts accepted | reject rejects rejected
        succeeded | failed
        """
    ),
    up=words(
        """
        increase increases increased increasing rise rises rose risen rising grow grows grew grown growing
        gain gains gained climb climbs climbed climbing higher highest larger largest greater
        greatest expand expands expanded surge surged soar soared upward improve improves improved
        widen widens widened accelerate accelerated peak peaked double doubled triple tripled boost boosted
        exceed exceeds exceeded jump jumps jumped spike spiked rebound rebounded quadrupled
        heighten heightens heightened heightening amplify amplifies amplified intensify intensifies intensified
        """
    )
    | directions_of("en", "up"),
    down=words(
        """
        decrease decreases decreased decreasing fall falls fell fallen falling decline declines declined
        declining drop drops dropped dropping shrink shrinks shrank shrunk lower lowest
        smaller smallest reduce reduces reduced reducing slump slumped plunge
        plunged downward worsen worsens worsened narrows narrowed slows slowed halve
        halved contract contracted diminish diminished dip dipped slid slide tumble tumbled plummet plummeted
        dwindle dwindled sank sink shrinks
        lessen lessens lessened weaken weakens weakened
        """
    )
    | directions_of("en", "down"),
    monotone=(
        "every year",
        "each year",
        "year after year",
        "every quarter",
        "steadily",
        "consistently",
        "continuously",
        "keeps rising",
        "keeps falling",
        "keeps growing",
        "keeps increasing",
        "keeps declining",
        "continues to",
    ),
    period_current=(
        "current period",
        "current year",
        "this period",
        "this year",
        "end of period",
        "end of year",
        "year-end",
    ),
    period_prior=(
        "prior period",
        "prior year",
        "previous period",
        "previous year",
        "last year",
        "beginning of period",
        "beginning of year",
    ),
    shortfall_quantities=words("loss losses deficit deficits shortfall"),
    units=tuple(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen".split()
    ),
    tens=tuple("twenty thirty forty fifty sixty seventy eighty ninety".split()),
    number_words={"hundred": 100, "thousand": 1000},
    ordinals=words("first second third fourth fifth once"),
    ambiguous_numbers=words("one zero"),
    number_joiners=words("and"),
    scales={
        "hundred": 100,
        "thousand": 1000,
        "k": 1000,
        "million": 10**6,
        "millions": 10**6,
        "mn": 10**6,
        "m": 10**6,
        "billion": 10**9,
        "billions": 10**9,
        "bn": 10**9,
        "trillion": 10**12,
        "trillions": 10**12,
    },
    fractions={
        "half": 2,
        "halves": 2,
        "third": 3,
        "thirds": 3,
        "quarter": 4,
        "quarters": 4,
        "fourth": 4,
        "fourths": 4,
        "fifth": 5,
        "fifths": 5,
        "sixth": 6,
        "sixths": 6,
        "tenth": 10,
        "tenths": 10,
    },
    multipliers={
        "double": 2,
        "doubled": 2,
        "doubles": 2,
        "twice": 2,
        "twofold": 2,
        "triple": 3,
        "tripled": 3,
        "thrice": 3,
        "threefold": 3,
        "quadrupled": 4,
        "fourfold": 4,
        "fivefold": 5,
        "sixfold": 6,
        "tenfold": 10,
    },
    fraction_counts=("a", "an", "one", "two", "three", "four", "five"),
    fraction_of=("of",),
    hedges_above=("more than|over|above|exceeding|at least|greater than|larger than|higher than|upwards of",),
    hedges_below=("less than|under|below|fewer than|at most|up to|smaller than|lower than|no more than",),
    hedges_near=(r"about|around|approximately|approx\.?|roughly|nearly|almost|some|circa|ca\.?|close to",),
    units_of={
        "time": {
            "second": "second seconds sec secs",
            "minute": "minute minutes min mins",
            "hour": "hour hours hr hrs",
            "day": "day days",
            "week": "week weeks",
            "month": "month months",
            "year": "year years yr yrs",
        },
        "money": {
            "usd": "dollar dollars",
            "eur": "euro euros",
            "gbp": "pound pounds",
            "cny": "yuan renminbi yen",
            "cent": "cent cents ct cts",
        },
        "share": {"percent": "percent pct", "point": "point points pp percentage"},
    },
    periods={"hour": "hour", "day": "day", "week": "week", "month": "month", "year": "year", "annum": "year"},
    rate_adverbs={
        "hourly": "hour",
        "daily": "day",
        "weekly": "week",
        "monthly": "month",
        "yearly": "year",
        "annually": "year",
    },
    per=("per", "a", "an", "each", "every"),
    times=words("times"),
    how_often=words("twice thrice"),
    comparatives=words(
        "more less fewer faster slower higher lower larger smaller greater bigger longer shorter better worse "
        "cheaper costlier heavier wider deeper as the that than over"
    ),
    magnitude_suffixes={"k": 1000, "m": 10**6, "mn": 10**6, "bn": 10**9},
    scale_phrases={
        r"in thousands|thousands of|\(000s?\)|in \$?000s?|in \$? ?thousands": 1000,
        r"in millions|millions of|\(in millions\)|in \$ ?millions|\$ ?millions": 10**6,
        r"in billions|billions of": 10**9,
    },
    labels=(
        "table|tab|figure|fig|section|sec|chapter|ch|appendix|definition|def|theorem|lemma|proposition|prop|slides?|pages|"
        "corollary|remark|example|equation|eq|point|step|item|paragraph|para|article|art|page|pp?|form|"
        "schedule|line|part|version|release|rev|study|experiment|exp|phase|task|stage|condition|round|"
        "session|wave|hypothesis|rq",
    ),
    page_words=(r"pp?\.", "pages?"),
    source_words=("sources?", "src"),
    document_words=("documents?", "docs?"),
)
