"""French."""

from __future__ import annotations

from citeline.text.lang import Language, antonyms_of, directions_of, opposites, words

FUNCTION_WORDS = words(
    """
    le la les l un une des du de d au aux et ou mais donc or ni car en dans par pour sur sous avec sans
    chez entre vers que qui quoi dont où ce cet cette ces son sa ses leur leurs il elle ils elles on nous
    vous je tu se s y est sont était étaient sera seront a ont avait avaient été être avoir peut peuvent
    doit doivent plus très aussi ne pas
    """
)

LANGUAGE = Language(
    "fr",
    abbreviations=words("mme mlle mm env cf etc p pp chap fig éd vol art al av apr ex"),
    months={
        **{
            w: n
            for n, w in enumerate(
                "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(), 1
            )
        },
        "févr": 2,
    },
    ambiguous_months=words("mars"),
    # ("n" is "ne" elided before a vowel: "n'est", "n'a jamais")
    negations=words("ne n pas jamais aucun aucune sans nullement ni rien guère"),
    negative_prepositions=words("sans"),
    reply_no=("non",),
    not_negations=(
        "non seulement|pas seulement|sans doute|néanmoins",
        # "ne … que" (only), unless a negative word follows in the clause ("ne … pas que")
        r"n(?:e\s|['’])(?:(?!(?:pas|jamais|plus|rien|aucune?)\b)[^\W\d_]+['’]?\s?){1,3}?que?\b"
        r"(?![^.;]*\b(?:pas|jamais|plus|rien|aucune?)\b)",
    ),
    compound_negations=("jamais", "aucune?"),
    negating_prefixes=("in", "im", "il", "ir", "dé", "non", "mal"),
    subordinators=words(
        "quand lorsque si parce puisque bien quoique pendant où après avant jusqu dès que qui dont comme pourquoi"
    ),
    conditionals=words("si lorsque quand"),
    concessives=words("contrairement malgré"),
    coordinators=words("et mais ou ni"),
    clause_conjunctions=words("et mais ou ni"),
    relatives=words("qui que dont"),
    finite_verbs=words("est sont était étaient sera seront a ont avait avaient peut peuvent doit doivent"),
    contrasts=words("mais cependant"),
    between=FUNCTION_WORDS | words("pas été est sont était plus jamais encore très"),
    light_verbs=words(
        """
        donne donnent donné donnée fournit fourni fournie montre montrent montré trouve trouvé produit produite
        révèle révélé atteint obtenu obtient offre offert
        """
    ),
    function_words=FUNCTION_WORDS,
    infinitive=words("de"),
    determiners=words("le la les un une des du ce cette ces"),
    announces=words("suivant suivants suivante suivantes ci-dessous"),
    says=(r"dit|indique|précise|stipule|prévoit|énonce|mentionne|rapporte|suit",),
    lead_ins=(r"selon|d['’]après|suivant",),
    endings=words("s e es x aux") | {""},
    prohibitions=words("interdit interdite interdits interdites interdire interdisons prohibé prohibée"),
    degree_up=words("plus élevé élevée élevés élevées supérieur supérieure meilleur meilleure"),
    degree_down=words("moins faible faibles inférieur inférieure pire"),
    comparand_openers=words("comparé comparée comparés comparées rapport tandis"),
    comparisons=words("que qu comparé comparée par rapport tandis"),
    antonyms=antonyms_of("fr"),
    proportions={
        k.lower(): v
        for k, v in {
            "la plupart": (0.51, 1.0),
            "presque tous": (0.85, 1.0),
            "presque toutes": (0.85, 1.0),
            "la majorité": (0.51, 1.0),
            "plus de la moitié": (0.5, 1.0),
            "moins de la moitié": (0.0, 0.5),
            "la moitié": (0.4, 0.6),
            "un tiers": (0.28, 0.4),
            "deux tiers": (0.58, 0.75),
            "un quart": (0.18, 0.32),
            "trois quarts": (0.68, 0.82),
            "une minorité": (0.0, 0.49),
            "une petite partie": (0.0, 0.3),
        }.items()
    },
    ratio_words=frozenset({"sur"}),
    percent_words=frozenset({"%", "pour cent"}),
    share_of=words("de des du d"),
    part_openers=words("seulement seuls seules"),
    covariates=frozenset({"quand", "lorsque", "à mesure que"}),
    universal=frozenset(
        {"tous", "toutes", "chaque", "toujours", "seul", "seule", "seuls", "seules", "uniquement", "seulement"}
    ),
    partial=frozenset(
        {"certains", "certaines", "quelques", "parfois", "souvent", "par exemple", "notamment", "entre autres", "parmi"}
    ),
    magnitudes=opposites(
        "légèrement légère léger peu faiblement modestement marginalement modeste modestes "
        "| fortement considérablement nettement beaucoup largement massivement énormément "
        "considérable considérables"
    ),
    opposites=opposites(
        """
        rapide rapides | lent lente lents lentes
        meilleur meilleure meilleurs meilleures | pire pires
        surestime surestiment surestimé surestimée | sous-estime
        positivement | négativement
        au-dessus | au-dessous
        tôt | tard
        fort forte forts fortes renforce renforcé | faible faibles affaiblit affaibli
        majorité | minorité
        maximum | minimum
        supérieur supérieure supérieurs supérieures | inférieur inférieure inférieurs inférieures
        inclus incluse inclut | exclu exclue exclut
        accepté acceptée | rejeté rejetée
        """
    ),
    up=words(
        """
        augmente augmenté augmentation hausse croît croissance progresse progression supérieur
        supérieure élevé élevée double doublé grimpe monte monté
        """
    )
    | directions_of("fr", "up"),
    down=words(
        """
        diminue diminué diminution baisse baissé recul recule décroît chute chuté inférieur
        inférieure faible réduit réduite réduction
        """
    )
    | directions_of("fr", "down"),
    monotone=("chaque année", "d'année en année", "régulièrement", "continuellement", "constamment"),
    period_current=("exercice en cours", "période en cours", "fin de période", "fin d'exercice", "année en cours"),
    period_prior=("exercice précédent", "période précédente", "année précédente", "début de période"),
    shortfall_quantities=words("perte pertes déficit déficits"),
    units=tuple(
        "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize".split()
    ),
    tens=tuple("vingt trente quarante cinquante soixante".split()),
    number_words={"cent": 100, "cents": 100, "mille": 1000, "une": 1},
    ordinals=words("premier première deuxième troisième second seconde"),
    ambiguous_numbers=words("un une neuf zéro cent cents"),
    number_joiners=words("et"),
    scales={"cent": 100, "mille": 1000, "million": 10**6, "millions": 10**6, "milliard": 10**9, "milliards": 10**9},
    fractions={"moitié": 2, "tiers": 3, "quart": 4, "quarts": 4},
    multipliers={"doublé": 2, "triplé": 3},
    fraction_counts=("un", "une", "deux", "trois"),
    fraction_of=("des", "de"),
    hedges_above=("plus de|au moins|supérieure? à",),
    hedges_below=("moins de|jusqu'à|inférieure? à",),
    hedges_near=("environ|près de|presque|quelque",),
    units_of={
        "time": {
            "second": "seconde secondes",
            "minute": "minute minutes",
            "hour": "heure heures",
            "day": "jour jours",
            "week": "semaine semaines",
            "month": "mois",
            "year": "an ans année années",
        },
        "money": {"eur": "euro euros"},
        "share": {"percent": "pour cent", "point": "points"},
    },
    periods={
        "heure": "hour",
        "heures": "hour",
        "jour": "day",
        "jours": "day",
        "semaine": "week",
        "semaines": "week",
        "mois": "month",
        "an": "year",
        "année": "year",
    },
    rate_adverbs={
        "quotidien": "day",
        "quotidienne": "day",
        "hebdomadaire": "week",
        "mensuel": "month",
        "mensuelle": "month",
        "annuel": "year",
        "annuelle": "year",
    },
    per=("par", "chaque"),
    space_grouping=True,
    times=words("fois"),
    comparatives=words("plus moins aussi"),
    magnitude_suffixes={"md": 10**9, "mds": 10**9},
    scale_phrases={r"en milliers|milliers d": 1000, r"en millions|millions d": 10**6},
    labels=(
        "tableau|chapitre|théorème|définition|remarque|exemple|formulaire|annexe|étude|expérience|article|diapositive|page",
    ),
    page_words=(r"p\.", "pages?"),
    source_words=("sources?",),
    document_words=("documents?",),
)
