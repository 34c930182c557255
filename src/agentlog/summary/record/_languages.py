"""Words of grammar in languages other than English, for the word checks of :mod:`._words`.

The rules that read negations and hedges (:mod:`._words`) are of grammar, not of a domain,
and their English words live beside them. A tool may answer in another language ("nicht
genehmigt", "vorläufig genehmigt"), so the same roles are filled here for the languages whose
negation the checks read: German, French, Spanish, Portuguese, Italian, Dutch and Polish in
Latin letters, Russian and Ukrainian in Cyrillic, and Greek. Each word is written as the checks
read it (:func:`~agentlog.summary.record.unicode_fold.fold_words`: lower case, accents dropped,
so "vorläufig" is ``vorlaufig`` and "όχι" is ``οχι``; a word of another script kept in it, and
written here as escapes so that no reader takes a Cyrillic letter for a Latin one).
"""

from __future__ import annotations

from typing import Final

__all__ = ["HEDGES", "NEGATORS"]


def _declined(stem: str, endings: tuple[str, ...]) -> tuple[str, ...]:
    """``stem`` with each of ``endings``: an adjective's forms (vorläufig, -e, -en, ...), as a
    hedge is matched as a whole word."""
    return tuple(stem + e for e in endings)


_DE: Final = ("", "e", "en", "er", "es", "em")
_FR: Final = ("", "le", "s", "les")
_ES: Final = ("o", "a", "os", "as")
_IT: Final = ("o", "a", "i", "e")
_PL: Final = ("o", "y", "a", "e", "ego", "ej", "ym")

NEGATORS: Final[tuple[str, ...]] = (
    # The particles that negate the next word ("nicht genehmigt" is not "genehmigt"); those
    # of Spanish and Italian ("no", "non") are English words too.
    *("nicht", "kein", "keine", "keinen", "keiner", "pas", "nao", "niet", "geen", "nie"),
    # Russian, Ukrainian, Bulgarian, Serbian: "не", "ни", "нет", "ні", "без" (without).
    *("\u043d\u0435", "\u043d\u0438", "\u043d\u0435\u0442", "\u043d\u0456", "\u0431\u0435\u0437"),
    # Greek: "δεν", "μη", "μην", "όχι".
    *("\u03b4\u03b5\u03bd", "\u03bc\u03b7", "\u03bc\u03b7\u03bd", "\u03bf\u03c7\u03b9"),
)
"""Words that negate the word they govern, as :data:`._words.NEGATED` reads it."""

HEDGES: Final[tuple[str, ...]] = (
    # German: provisional, provisory, conditionally, subject to, with reservation, expected,
    # probably, presumably, possibly, perhaps, maybe, allegedly, partly, unconfirmed, for
    # now, temporarily, in principle, draft, to be confirmed.
    *_declined("vorlaufig", _DE),
    *_declined("provisorisch", _DE),
    *("bedingt", "vorbehaltlich", "unter vorbehalt", "voraussichtlich", "wahrscheinlich"),
    *("vermutlich", "moglicherweise", "vielleicht", "eventuell", "angeblich", "teilweise"),
    *_declined("unbestatigt", _DE),
    *("vorerst", "vorubergehend", "grundsatzlich", "im prinzip", "entwurf", "zu bestatigen"),
    # French.
    *("provisoire", "provisoires", "provisoirement", "conditionnellement", "probablement"),
    *_declined("conditionnel", _FR),
    *_declined("partiel", _FR),
    *("peut etre", "eventuellement", "partiellement", "en principe", "sous reserve"),
    *("pretendument", "temporaire", "temporaires", "temporairement", "a confirmer"),
    *("brouillon", "preliminaire", "preliminaires"),
    # Spanish and Portuguese.
    *("provisional", "provisionales", "provisionalmente", "condicionales", "condicionalmente"),
    *_declined("provisori", _ES),
    *("provisoriamente", "condicional", "probablemente", "provavelmente", "posiblemente"),
    *("possivelmente", "quizas", "quiza", "tal vez", "talvez", "parcial", "parciales"),
    *("parcialmente", "en principio", "em principio", "sujeto a", "sujeta a", "sujeito a"),
    *("sujeita a", "supuestamente", "supostamente", "presuntamente", "temporalmente"),
    *_declined("temporari", _ES),
    *("temporariamente", "por confirmar", "a confirmar", "borrador", "rascunho"),
    *("preliminar", "preliminares"),
    *("tentativamente",),  # not "tentativo", an attempt in Italian
    # Italian.
    *_declined("provvisori", _IT),
    *_declined("condizionat", _IT),
    *("provvisoriamente", "condizionale", "probabilmente", "forse", "parziale", "parziali"),
    *("parzialmente", "temporaneamente", "da confermare", "bozza", "preliminare"),
    *_declined("temporane", _IT),
    # Dutch.
    *("voorlopig", "voorlopige", "voorwaardelijk", "voorwaardelijke", "waarschijnlijk"),
    *("misschien", "mogelijk", "mogelijkerwijs", "gedeeltelijk", "gedeeltelijke", "deels"),
    *("in principe", "onder voorbehoud", "vermoedelijk", "zogenaamd", "tijdelijk"),
    *("tijdelijke", "te bevestigen"),
    # Polish: temporarily, preliminarily, conditionally, probably, maybe, partly, in
    # principle, allegedly, presumably, to be confirmed.
    *_declined("tymczasow", _PL),
    *_declined("wstepn", ("ie", *_PL[1:])),
    *_declined("warunkow", _PL),
    *_declined("czesciow", _PL),
    *("prawdopodobnie", "moze", "chyba", "w zasadzie", "rzekomo", "przypuszczalnie"),
    *("do potwierdzenia",),
    # Russian: preliminarily, temporarily, conditionally, partly, possibly, probably,
    # presumably.
    "\u043f\u0440\u0435\u0434\u0432\u0430\u0440\u0438\u0442\u0435\u043b\u044c\u043d\u043e",
    "\u0432\u0440\u0435\u043c\u0435\u043d\u043d\u043e",
    "\u0443\u0441\u043b\u043e\u0432\u043d\u043e",
    "\u0447\u0430\u0441\u0442\u0438\u0447\u043d\u043e",
    "\u0432\u043e\u0437\u043c\u043e\u0436\u043d\u043e",
    "\u0432\u0435\u0440\u043e\u044f\u0442\u043d\u043e",
    "\u043f\u0440\u0435\u0434\u043f\u043e\u043b\u043e\u0436\u0438\u0442\u0435\u043b\u044c\u043d\u043e",
    # Greek: provisionally, perhaps, probably, partly, under conditions.
    "\u03c0\u03c1\u03bf\u03c3\u03c9\u03c1\u03b9\u03bd\u03b1",
    "\u03b9\u03c3\u03c9\u03c2",
    "\u03c0\u03b9\u03b8\u03b1\u03bd\u03c9\u03c2",
    "\u03bc\u03b5\u03c1\u03b9\u03ba\u03c9\u03c2",
    "\u03c5\u03c0\u03bf \u03bf\u03c1\u03bf\u03c5\u03c2",
)
"""Words and two-word phrases that hedge what their clause says without naming a condition,
as :data:`._words._HEDGES` reads the English ones ("vorläufig genehmigt" is provisionally
approved, not approved): adverbs and adjectives of doubt, of provision and of part, never a
domain's words."""
