"""German."""

from __future__ import annotations

from citeline.text.lang import Language, antonyms_of, directions_of, opposites, words

FUNCTION_WORDS = words(
    """
    der die das den dem des ein eine einer eines einem einen und oder aber in im ins an am auf aus bei
    mit nach von vom zu zum zur für über unter vor hinter neben zwischen durch gegen um als wie ob so
    auch nur noch schon sehr ganz mehr es er sie wir ihr ich du man sich sein seine ihre dieser diese
    dieses jener jene ist sind war waren wird werden wurde wurden worden sein hat haben hatte hatten
    kann können muss müssen darf dürfen soll sollen will wollen mag mögen hier dort dann denn doch
    """
)

#: "-mal" words of the numbers: "zehnmal so hoch" (ten times as high), "zweimal" (twice)
_MAL = {
    f"{word}mal": n
    for word, n in {
        "zwei": 2,
        "drei": 3,
        "vier": 4,
        "fünf": 5,
        "funf": 5,
        "sechs": 6,
        "sieben": 7,
        "acht": 8,
        "neun": 9,
        "zehn": 10,
        "zwanzig": 20,
        "fünfzig": 50,
        "funfzig": 50,
        "hundert": 100,
        "tausend": 1000,
    }.items()
}

LANGUAGE = Language(
    "de",
    abbreviations=words(
        """
        bzw ca vgl nr abs hrsg ggf evtl inkl zzgl sog usw z.b d.h u.a s.o s.u bsp abb tab kap mio mrd
        art abschn dr prof st jan feb mär apr jun jul aug sep sept okt nov dez
        """
    ),
    months={
        **{
            w: n
            for n, w in enumerate(
                "januar februar märz april mai juni juli august september oktober november dezember".split(), 1
            )
        },
        "jänner": 1,
    },
    ambiguous_months=frozenset(),
    negations=words(
        """
        nicht kein keine keinen keiner keines keinem keinerlei nie niemals weder keineswegs keinesfalls
        nirgends nichts niemand ohne
        """
    ),
    negative_prepositions=words("ohne"),
    reply_no=("nein",),
    not_negations=("nicht nur|nicht zuletzt", r"nicht un\w+"),
    compound_negations=("nicht", "nie", "niemals", r"kein\w*"),
    negating_prefixes=("un", "miss", "nicht"),
    subordinators=words(
        """
        wenn wann falls sofern weil obwohl obgleich während wo nachdem bevor bis sobald seit dass welche
        welcher welches da
        """
    ),
    conditionals=words("wenn falls sofern sobald"),
    concessives=words("trotz"),
    coordinators=words("und aber oder sondern"),
    clause_conjunctions=words("und aber oder sondern"),
    relatives=words("der die das welcher welche welches"),
    finite_verbs=words(
        "ist sind war waren wird werden hat haben hatte hatten kann können muss müssen darf dürfen soll sollen"
    ),
    contrasts=words("aber sondern jedoch"),
    between=FUNCTION_WORDS
    | words("hier noch mehr sehr ganz auch nur werden wurde wird worden sein ist sind war waren"),
    function_words=FUNCTION_WORDS,
    infinitive=words("zu"),
    determiners=words("der die das den dem des ein eine einen einem einer"),
    announces=words("folgende folgenden nachstehend nachstehende nachstehenden"),
    says=(r"heißt|sagt|schreibt|gilt|lautet|steht|besagt|erklärt|folgt",),
    lead_ins=("laut|gemäß|nach",),
    endings=words("s es d ed e en em er ern n r m") | {""},
    prohibitions=words("verboten untersagt untersagen untersagte verbietet verbieten"),
    degree_up=words(
        """
        mehr höher höhere höheren hoch hohe hohen größer größere größeren besser bessere
        schneller länger
        """
    ),
    degree_down=words(
        """
        weniger niedriger niedrigere niedrigeren niedrig niedrige geringer geringere geringeren
        kleiner kleinere kleineren schlechter langsamer kürzer
        """
    ),
    than=words("als"),
    rank_top=words("meisten meiste größte größten höchste höchsten häufigsten häufigste"),
    rank_bottom=words("wenigsten wenigste niedrigste niedrigsten kleinste kleinsten seltensten"),
    comparand_openers=words("verglichen gegenüber"),
    comparisons=words("als verglichen gegenüber während"),
    antonyms=antonyms_of("de"),
    proportions={
        k.lower(): v
        for k, v in {
            "die meisten": (0.51, 1.0),
            "fast alle": (0.85, 1.0),
            "nahezu alle": (0.85, 1.0),
            "die Mehrheit": (0.51, 1.0),
            "mehr als die Hälfte": (0.5, 1.0),
            "weniger als die Hälfte": (0.0, 0.5),
            "die Hälfte": (0.4, 0.6),
            "ein Drittel": (0.28, 0.4),
            "zwei Drittel": (0.58, 0.75),
            "ein Viertel": (0.18, 0.32),
            "drei Viertel": (0.68, 0.82),
            "eine Minderheit": (0.0, 0.49),
            "ein kleiner Teil": (0.0, 0.3),
        }.items()
    },
    ratio_words=frozenset({"von"}),
    percent_words=frozenset({"%", "Prozent"}),
    share_of=words("der des von"),
    part_openers=words("nur lediglich bloß"),
    covariates=frozenset({"wenn", "sobald"}),
    universal=frozenset(
        {"jeder", "jede", "jedes", "jeden", "alle", "immer", "nur", "ausschließlich", "einzige", "einzig"}
    ),
    partial=frozenset(
        {
            "einige",
            "manche",
            "mehrere",
            "manchmal",
            "oft",
            "zum beispiel",
            "z. b.",
            "beispielsweise",
            "unter anderem",
            "etwa",
        }
    ),
    magnitudes=opposites(
        "geringfügig geringfügige geringfügigen kaum wenig minimal marginal "
        "| deutlich deutliche deutlichen erheblich erhebliche erheblichen wesentlich beträchtlich "
        "beträchtliche massiv enorm drastisch"
    ),
    opposites=opposites(
        """
        schnell schneller schnellste schnellsten | langsam langsamer langsamste langsamsten
        besser beste besten | schlechter schlechteste schlechtesten
        überschätzt überschätzen überschätzte | unterschätzt unterschätzen unterschätzte
        positiv | negativ
        oberhalb | unterhalb
        früher | später
        stärker stärkste stärken stärkt | schwächer schwächste schwächen schwächt
        leichter | schwerer
        mehrheit | minderheit
        maximum | minimum
        überlegen | unterlegen
        eingeschlossen einbezogen | ausgeschlossen
        angenommen | abgelehnt
        """
    ),
    up=words(
        """
        steigt stieg gestiegen steigen wächst wuchs gewachsen wachsen erhöht erhöhte erhöhen zunahme
        zugenommen höher größer gestiegene anstieg verdoppelt
        """
    )
    | directions_of("de", "up"),
    down=words(
        """
        sinkt sank gesunken sinken fällt fiel gefallen fallen verringert verringerte verringern abnahme
        abgenommen niedriger kleiner rückgang halbiert gesenkt senkt
        """
    )
    | directions_of("de", "down"),
    monotone=("jedes jahr", "jährlich", "stetig", "kontinuierlich", "durchgehend", "von jahr zu jahr"),
    period_current=("laufendes jahr", "berichtsjahr", "geschäftsjahr", "aktuelles jahr", "ende der periode"),
    period_prior=("vorjahr", "vorperiode", "beginn der periode"),
    shortfall_quantities=words("verlust verluste defizit fehlbetrag"),
    units=tuple(
        "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn "
        "sechzehn siebzehn achtzehn neunzehn".split()
    ),
    tens=tuple("zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig".split()),
    number_words={"hundert": 100, "tausend": 1000, "ein": 1, "eine": 1},
    ordinals=words("erste erster zweite zweiter dritte dritter einmal"),
    ambiguous_numbers=words("ein eine null"),
    number_joiners=words("und"),
    scales={
        "hundert": 100,
        "tausend": 1000,
        "millionen": 10**6,
        "million": 10**6,
        "mio": 10**6,
        "milliarde": 10**9,
        "milliarden": 10**9,
        "mrd": 10**9,
        "billionen": 10**12,
    },
    fractions={"hälfte": 2, "drittel": 3, "viertel": 4},
    multipliers={
        "verdoppelt": 2,
        "verdreifacht": 3,
        "doppelt": 2,
        **_MAL,
    },
    # "zweimal" is how often, "zehnmal so hoch" a multiplier (a comparative after it)
    how_often=frozenset(_MAL),
    fraction_counts=("ein", "eine", "zwei", "drei"),
    fraction_of=("der", "des"),
    hedges_above=("mehr als|über|grö(?:ß|ss)er als|höher als|mindestens",),
    hedges_below=("weniger als|unter|bis zu|kleiner als|geringer als|niedriger als|höchstens",),
    hedges_near=("etwa|rund|ungefähr|fast|knapp|gut|ca\\.?",),
    units_of={
        "time": {
            "second": "sekunde sekunden",
            "minute": "minute minuten",
            "hour": "stunde stunden",
            "day": "tag tage tagen",
            "week": "woche wochen",
            "month": "monat monate monaten",
            "year": "jahr jahre jahren",
        },
        "money": {"eur": "euro"},
        "share": {"percent": "prozent", "point": "prozentpunkte"},
    },
    periods={"stunde": "hour", "stunden": "hour", "tag": "day", "woche": "week", "monat": "month", "jahr": "year"},
    rate_adverbs={"täglich": "day", "wöchentlich": "week", "monatlich": "month", "jährlich": "year"},
    per=("pro", "je"),
    space_grouping=True,
    times=words("mal"),
    comparatives=words("mehr weniger so größer höher schneller"),
    magnitude_suffixes={"mio": 10**6, "mrd": 10**9},
    scale_phrases={r"in tausend|tsd\.|in 1\.000": 1000, r"in mio\.?|in millionen|mio\. ?(?:euro|€)": 10**6},
    labels=("tabelle|abbildung|abb|kapitel|abschnitt|satz|bemerkung|beispiel|seite|formular|anlage|studie",),
    page_words=(r"s\.", "seiten?"),
    source_words=("quellen?",),
    document_words=("dokumente?",),
)
