"""Spanish."""

from __future__ import annotations

from citeline.text.lang import Language, antonyms_of, directions_of, opposites, words

FUNCTION_WORDS = words(
    """
    el la los las un una unos unas lo al del de y e o u pero sino ni en por para con sin sobre entre
    hasta desde hacia que quien cual cuyo cuya donde como cuando este esta estos estas ese esa su sus
    se es son era eran fue fueron será serán ha han había habían ser estar está están puede pueden debe
    deben muy más también no
    """
)

LANGUAGE = Language(
    "es",
    abbreviations=words("sr sra srta dr dra ud uds etc p pp pág págs art núm cap fig vol ej aprox"),
    months={
        w: n
        for n, w in enumerate(
            "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(), 1
        )
    },
    negations=words("no nunca jamás ningún ninguno ninguna nada nadie sin tampoco ni"),
    negative_prepositions=words("sin"),
    reply_no=("no",),
    not_negations=(r"no solo|no sólo|no solamente|sin embargo|no obstante|sin duda", r"no in\w+"),
    compound_negations=("no",),
    negating_prefixes=("in", "im", "des", "dis", "anti"),
    subordinators=words("cuando si porque aunque mientras donde que quien cual cuyo como pues ya"),
    conditionals=words("si cuando"),
    concessives=words("pese"),
    coordinators=words("y e o u pero sino ni"),
    clause_conjunctions=words("y pero o sino"),
    relatives=words("que quien quienes cual cuales cuyo cuya"),
    finite_verbs=words("es son era eran fue fueron será serán ha han había habían puede pueden debe deben está están"),
    contrasts=words("pero sino aunque"),
    between=FUNCTION_WORDS | words("siempre todavía aún actualmente"),
    light_verbs=words(
        """
        da dio dado produce produjo producido muestra mostró mostrado ofrece ofreció ofrecido revela reveló
        revelado alcanza alcanzó alcanzado obtiene obtuvo obtenido encuentra encontró encontrado
        """
    ),
    function_words=FUNCTION_WORDS,
    infinitive=frozenset(),
    determiners=words("el la los las un una unos unas este esta estos estas"),
    announces=words("siguiente siguientes"),
    says=(r"dice|indica|señala|establece|afirma|menciona|explica|sigue",),
    lead_ins=(r"según|de acuerdo con|conforme a",),
    endings=words("s es a o as os") | {""},
    prohibitions=words("prohibido prohibida prohibidos prohibidas prohíbe prohibir vedado"),
    degree_up=words("más mayor mayores superior superiores alto alta altos altas mejor"),
    degree_down=words("menos menor menores inferior inferiores bajo baja bajos bajas peor"),
    comparand_openers=words("comparado comparada comparados comparadas frente mientras"),
    comparisons=words("que comparado comparada frente mientras"),
    antonyms=antonyms_of("es"),
    proportions={
        k.lower(): v
        for k, v in {
            "la mayoría": (0.51, 1.0),
            "casi todos": (0.85, 1.0),
            "casi todas": (0.85, 1.0),
            "más de la mitad": (0.5, 1.0),
            "menos de la mitad": (0.0, 0.5),
            "la mitad": (0.4, 0.6),
            "un tercio": (0.28, 0.4),
            "dos tercios": (0.58, 0.75),
            "una cuarta parte": (0.18, 0.32),
            "tres cuartos": (0.68, 0.82),
            "una minoría": (0.0, 0.49),
            "una pequeña parte": (0.0, 0.3),
        }.items()
    },
    ratio_words=frozenset({"de"}),
    percent_words=frozenset({"%", "por ciento"}),
    share_of=words("de del"),
    part_openers=words("solo sólo solamente únicamente"),
    covariates=frozenset({"cuando", "a medida que"}),
    universal=frozenset(
        {"todos", "todas", "cada", "siempre", "solo", "sólo", "únicamente", "solamente", "único", "única"}
    ),
    partial=frozenset(
        {"algunos", "algunas", "varios", "varias", "a veces", "por ejemplo", "entre otros", "entre otras"}
    ),
    magnitudes=opposites(
        "ligeramente levemente poco apenas marginalmente leve leves "
        "| considerablemente sustancialmente notablemente mucho enormemente drásticamente "
        "significativamente fuertemente considerable considerables"
    ),
    opposites=opposites(
        """
        rápido rápida rápidos rápidas | lento lenta lentos lentas
        mejor mejores | peor peores
        sobreestima sobrestima sobreestimado | subestima subestimado
        positivamente | negativamente
        encima | debajo
        temprano | tarde
        fuerte fuertes | débil débiles
        mayoría | minoría
        máximo | mínimo
        superior superiores | inferior inferiores
        incluido incluida incluye | excluido excluida excluye
        aceptado aceptada | rechazado rechazada
        """
    ),
    up=words("aumenta aumentó aumento sube subió crece creció crecimiento mayor superior alza duplicó")
    | directions_of("es", "up"),
    down=words("disminuye disminuyó disminución baja bajó cae cayó caída menor inferior reducción redujo")
    | directions_of("es", "down"),
    monotone=("cada año", "año tras año", "constantemente", "continuamente"),
    units=tuple(
        "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis "
        "diecisiete dieciocho diecinueve".split()
    ),
    tens=tuple("veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa".split()),
    number_words={"cien": 100, "ciento": 100, "mil": 1000, "un": 1, "una": 1},
    ordinals=words("primero primera segundo segunda tercero tercera"),
    ambiguous_numbers=words("un una uno"),
    number_joiners=words("y"),
    scales={"mil": 1000, "millón": 10**6, "millones": 10**6},
    fractions={"mitad": 2, "tercio": 3, "tercios": 3, "cuarto": 4, "cuartos": 4},
    multipliers={"duplicó": 2, "triplicó": 3},
    fraction_counts=("un", "una", "dos", "tres"),
    fraction_of=("de",),
    hedges_above=("más de|al menos|superior a|por encima de",),
    hedges_below=("menos de|hasta|inferior a|como máximo",),
    hedges_near=("aproximadamente|alrededor de|cerca de|casi|unos|unas",),
    units_of={
        "time": {
            "second": "segundo segundos",
            "minute": "minuto minutos",
            "hour": "hora horas",
            "day": "día días",
            "week": "semana semanas",
            "month": "mes meses",
            "year": "año años",
        },
        "money": {"eur": "euro euros", "usd": "dólar dólares"},
        "share": {"percent": "por ciento"},
    },
    periods={"hora": "hour", "día": "day", "semana": "week", "mes": "month", "año": "year"},
    rate_adverbs={"diario": "day", "semanal": "week", "mensual": "month", "anual": "year"},
    per=("por", "cada", "al"),
    space_grouping=True,
    times=words("veces"),
    comparatives=words("más menos tan"),
    scale_phrases={r"en miles|miles de": 1000, r"en millones|millones de": 10**6},
    labels=("tabla|figura|capítulo|sección|artículo|ejemplo|formulario|anexo|estudio|página|apartado",),
    page_words=(r"págs?\.", "páginas?"),
    source_words=("fuentes?",),
    document_words=("documentos?",),
)
