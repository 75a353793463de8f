"""Rule profiles: every configurable parameter of the Stud Hi/Lo rules (R1–R19 of
``stud8-rules.md``) plus the few site-practice parameters that only describe how a site *reports*
a hand. The replay engine knows a site only through its profile.

Built-ins: one per site whose practice the rules document records, and the rulebooks ``robert``
(Robert's Rules, cash game), ``wsop`` (2024 WSOP live action), ``pokerkit`` (PokerKit's
behaviour), ``888poker`` (the 888poker rules page, S000) and ``spanish`` (alias ``romanian``: the
Spanish/Romanian rules text, S003/S004). A TOML file may define a profile too; ``base`` names the
profile it starts from.

Which profile judges a hand is decided in one place, :func:`profile_for`: the one the user named
(explicitly chosen: its readings are the rules), else the profile of the site that dealt the hand
(``origin_site`` for a converted history). Under a site profile the parameters the rules document
leaves unsettled online (:data:`UNSETTLED`, minus what the site's own hands establish, recorded per
profile in ``established``) do not decide a violation on their own.

>>> PROFILES["wsop"].max_raises, PROFILES["pokerstars"].max_raises
(4, 3)
>>> profile_for_site("Winamax").uncalled_in_awards
True
>>> load_profile("pokerkit").reopen_threshold
'full'
>>> [rule.key for rule in PROFILES["fulltilt"].unsettled_rules()][-1], load_profile("romanian").name
('odd_unit_tied_half', 'spanish')
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

from hhtool.model import Hand
from hhtool.replay.user_structures import UserStructures

#: the largest rake any site is known to take, in percent of the pot: rooms rake 3-5 % below a cap of a
#: few big bets (the corpus's implied rakes are 0.5-4 %); twice the most any of them takes leaves room for
#: a small pot's rounding. Where a history prints no rake and the desk gives no schedule, a cash pot short
#: of more than this (beyond one unit) kept money no rake explains: a POT_TOTAL violation, not a rake to
#: assume (docs/structures.md). A desk that knows its rake gives its schedule instead (``--structures``).
MOST_RAKE_PERCENT = 10


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """The rules a hand is replayed under. Field names follow the rules document.

    Text parameters are typed with the values they allow (``Literal``); :data:`CHOICES`, the check of
    a profile made here or from a TOML file, and the choices listed to the user all derive from those
    types. The comment above each group says what they mean.
    """

    name: str = "default"
    # Conventions: "site" = Hand.position_order (dealer's left, or lowest seat when no dealer is
    # named); "lowest_seat" ignores a printed dealer seat.
    first_dealt_seat: Literal["site", "lowest_seat"] = "site"
    # R3 bring-in: ace "high" (stud) or "low" (the razz mirror: highest card brings in);
    # ties by suit c<d<h<s or by position order.
    bringin_ace: Literal["high", "low"] = "high"
    bringin_tie: Literal["suit", "position"] = "suit"
    # R4: after a bring-in all-in for less, the others still enter for the full bring-in (WSOP-LA
    # 217, "bring_in") or may just call the all-in amount (PokerKit, "all_in").
    short_bring_in: Literal["bring_in", "all_in"] = "bring_in"
    # R6: Stud-high double bet on an open pair on 4th street.
    fourth_street_double_bet: bool = False
    # R8: raises allowed after the bet (None = unlimited); when the cap may lift heads-up.
    max_raises: int | None = 3
    cap_applies_when: Literal["always", "multiway"] = "always"  # "multiway": the cap lifts heads-up as heads_up_uncap says
    heads_up_uncap: Literal["never", "round_start", "any_time"] = "never"
    # R11: how big a short all-in must be to count as a full bet ("half" of the increment or "full"),
    # whether short ones count towards the cap anyway, and where the next raise goes after a short
    # all-in that did not reopen: to the full level (TDA/WSOP) or one increment over the all-in (PK).
    reopen_threshold: Literal["half", "full"] = "half"
    # What a short all-in is measured against: the street's bet size (rulebooks) or, as PokerKit
    # does, the largest increase made on the street so far (so a first bet of any size is full).
    reopen_reference: Literal["bet_size", "largest_increase"] = "bet_size"
    short_allin_counts_to_cap: Literal["threshold", "always"] = "threshold"
    raise_after_short_allin: Literal["complete_to_full", "over_all_in"] = "complete_to_full"
    # R9: a fold when no bet is faced is accepted (online clients allow it).
    allow_fold_unfaced: bool = True
    # R14: odd unit between the halves, inside a tied half, how remaining units are spread, the
    # unit itself (smallest chip, in the hand's money units).
    odd_unit_hi_lo: Literal["high", "low"] = "high"
    odd_unit_tied_half: Literal["best_card_suit", "rr_suit", "position"] = "best_card_suit"
    tied_remainder: Literal["one_each", "first"] = "one_each"
    unit: int = 1
    # R13: whether a pot is split when only the hand (not the pot) has a qualifying low — PokerKit
    # splits every pot once any shown hand qualifies for low.
    low_half_exists: Literal["pot", "hand"] = "pot"
    # R12: side pots are fixed by the all-in levels ("all_in"); PokerKit forms them at the end from
    # the hands that win something, so a losing all-in hand's pot merges with the next ("showdown").
    pots_formed_at: Literal["all_in", "showdown"] = "all_in"
    # R7 opener.
    opener_tie: Literal["position", "suit"] = "position"
    allin_opener: Literal["next_active", "best_active"] = "next_active"
    common_card_opener: Literal["include", "exclude"] = "include"
    exposed_7th_opener: Literal["sixth_street", "all_upcards"] = "sixth_street"
    # R17: live games burn a card before each street; online decks do not.
    deck_burns: bool = False
    # R15: how a stated total rake is shared between main and side pots.
    rake_allocation: Literal["proportional", "main_pot", "last_pot"] = "proportional"
    # Site practice (reporting only): Winamax puts the returned uncalled bet inside its collected
    # amounts and prints no return line. Applies to a hand only where it prints no return line
    # (older and newer Merge exports differ in this).
    uncalled_in_awards: bool = False
    # R4, rulebooks only: the bring-in as a fixed fraction (numerator, denominator) of the small bet,
    # e.g. (1, 2) for 888poker's "half the small bet"; None: b is a table parameter (0 < b < S).
    bring_in_fraction: tuple[int, int] | None = None
    # Where the profile comes from, in one line (``hhtool audit --rules list``).
    source: str = ""
    # Keys of UNSETTLED that this site's own hands establish, with the evidence: (key, evidence).
    established: tuple[tuple[str, str], ...] = ()
    # Site practices learnt from the site's histories, with how many hands show them: (parameter, hands).
    # A practice seen in a handful of hands is the best reading known, not yet the site's known rule.
    learnt_from: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise ValueError(f"profile {self.name!r}: {name} = {value!r}; allowed: {', '.join(allowed)}")
        if self.max_raises is not None and self.max_raises < 0:
            raise ValueError(f"profile {self.name!r}: max_raises must be >= 0 or absent")
        if self.unit < 1:
            raise ValueError(f"profile {self.name!r}: unit must be >= 1")
        if self.bring_in_fraction is not None:
            numerator, denominator = self.bring_in_fraction
            if not 0 < numerator < denominator:
                raise ValueError(f"profile {self.name!r}: bring_in_fraction must be a fraction between 0 and 1")
        unknown = sorted({key for key, _ in self.established} - UNSETTLED.keys())
        if unknown:
            raise ValueError(f"profile {self.name!r}: established names no unsettled rule: {', '.join(unknown)}")
        strange = sorted(name for name, hands in self.learnt_from if name not in _PARAMETER_NAMES or hands < 1)
        if strange:
            raise ValueError(f"profile {self.name!r}: learnt_from names no parameter or no hand: {', '.join(strange)}")
        if (self.cap_applies_when == "multiway") != (self.heads_up_uncap != "never"):
            raise ValueError(
                f"profile {self.name!r}: cap_applies_when = 'multiway' goes with heads_up_uncap 'round_start' or "
                "'any_time'; 'always' goes with 'never'"
            )

    def describe(self) -> str:
        """One line per parameter, for ``hhtool`` output and reports."""
        return "\n".join(f"{f.name} = {getattr(self, f.name)!r}" for f in fields(self) if f.name not in _NOT_RULES)

    def unsettled_rules(self) -> tuple[Unsettled, ...]:
        """The rules whose reading this profile's site does not establish (in UNSETTLED order)."""
        settled = {key for key, _ in self.established}
        return tuple(rule for key, rule in UNSETTLED.items() if key not in settled)


_NOT_RULES = frozenset(("notes", "source", "established", "learnt_from"))
_PARAMETER_NAMES = frozenset(f.name for f in fields(RuleProfile)) - _NOT_RULES


@dataclass(frozen=True, slots=True)
class Reading:
    """One documented way to play an unsettled rule: the parameter values it sets and who follows it."""

    label: str
    values: tuple[tuple[str, str], ...]
    source: str

    def applies_to(self, profile: RuleProfile) -> bool:
        return all(getattr(profile, name) == value for name, value in self.values)


@dataclass(frozen=True, slots=True)
class Unsettled:
    """A rule the rules document leaves open online: its documented readings and why it is open."""

    key: str  # the main parameter
    what: str  # the rule in words
    readings: tuple[Reading, ...]
    why_open: str  # the document's evidence (or lack of it)

    def reading_of(self, profile: RuleProfile) -> Reading | None:
        """The reading the profile follows; None when its values match none of them (a custom mix)."""
        return next((reading for reading in self.readings if reading.applies_to(profile)), None)

    def alternatives(self, profile: RuleProfile) -> tuple[Reading, ...]:
        own = self.reading_of(profile)
        return tuple(reading for reading in self.readings if reading is not own)



def _choices() -> dict[str, tuple[str, ...]]:
    """Each text parameter's allowed values, read from its ``Literal`` type."""
    hints = get_type_hints(RuleProfile)
    return {f.name: get_args(hints[f.name]) for f in fields(RuleProfile) if get_origin(hints[f.name]) is Literal}


#: Allowed values of every text parameter, from the fields' types; checked when a profile is made.
CHOICES: dict[str, tuple[str, ...]] = _choices()


def _load_unsettled(path: Path) -> dict[str, Unsettled]:
    """The unsettled rules as ``unsettled.toml`` documents them, in its order; a reading that sets a
    parameter no profile has, or a value it does not allow, fails here, at import."""
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    known = {f.name for f in fields(RuleProfile)} - _NOT_RULES
    rules: dict[str, Unsettled] = {}
    for key, rule in data.items():
        readings = tuple(Reading(reading["label"], tuple(reading["values"].items()), reading["source"])
                         for reading in rule["readings"])
        for reading in readings:
            for name, value in reading.values:
                if name not in known or value not in CHOICES.get(name, (value,)):
                    raise ValueError(f"{path.name}: {key} reading {reading.label!r} sets {name} = {value!r}, "
                                     "which no profile allows")
        rules[key] = Unsettled(key, rule["what"], readings, rule["why_open"])
    return rules


#: The rules whose online practice stud8-rules.md marks as unverified, with every reading it documents.
UNSETTLED: dict[str, Unsettled] = _load_unsettled(Path(__file__).with_name("unsettled.toml"))


DEFAULT = RuleProfile()

_SITE_NOTE = "site practice as recorded in stud8-rules.md; unobserved parameters keep the rulebook defaults"


def _site(name: str, source: str, **changes: Any) -> RuleProfile:
    return replace(DEFAULT, name=name, source=source, notes=(_SITE_NOTE,), **changes)


_STARS_RAKE = ("rake_allocation", "STARS-SALM #60974484959: each pot reduced in proportion ($0.44 -> $0.42, $0.64 -> $0.61), R15")

PROFILES: dict[str, RuleProfile] = {
    "default": replace(DEFAULT, source="the rules document's defaults (RR, WSOP-LA, observed online practice)"),
    # Observed: 3 raises, capped heads-up, odd unit to high, no double bet on 4th (R6, R8, R14).
    "pokerstars": _site("pokerstars", "PokerStars practice observed in its hand histories", established=(_STARS_RAKE,),
                        learnt_from=(("rake_allocation", 1),)),
    # Full Tilt takes the whole rake from the main pot (corpus hand #29705138396: main $85.10 less
    # the $3 rake split $41.05/$41.05, side pot $10 unraked $5/$5).
    "fulltilt": _site("fulltilt", "Full Tilt practice observed in its hand histories", rake_allocation="main_pot",
                      established=(("rake_allocation", "corpus hand #29705138396: the $3 rake all from the main pot, "
                                                       "the $10 side pot unraked"),),
                      learnt_from=(("rake_allocation", 1),)),
    "bovada": _site("bovada", "Bovada practice observed in its hand histories"),
    # iPoker prints only per-player bet/win totals; "win" includes the returned uncalled bet
    # (corpus hand 5710077134: bring-in uncalled, win €0.04 = both antes + the €0.02 bring-in).
    "ipoker": _site("ipoker", "iPoker practice observed in its hand histories", uncalled_in_awards=True),
    # Older Merge exports print no uncalled-bet pseudo-winner: the winner's amount holds the bet nobody
    # matched (newer ones print the return, which then is judged as a return).
    "merge": _site("merge", "Merge practice observed in its hand histories", uncalled_in_awards=True),
    "ongame": _site("ongame", "OnGame practice observed in its hand histories"),
    "absolute": _site("absolute", "Absolute practice observed in its hand histories"),
    "kingsclub": _site("kingsclub", "KingsClub practice observed in its hand histories"),
    "everleaf": _site("everleaf", "Everleaf: no recorded practice beyond the format (rulebook defaults)"),
    # R10 / R19: no return line; the unmatched bet is inside the collected amounts.
    "winamax": _site("winamax", "Winamax practice observed in its hand histories", uncalled_in_awards=True),
    # R14: the one Winning split gave the odd cent to the low half. The rake comes from the main pot
    # (ACR hand #1903647457, poker-apprentice/hand-history-parser acr.ts: "Side pot(1) $0.60 | Rake
    # $0.00", main pot $8.36 after its $0.10 split $4.18 / $4.18).
    "winning": _site("winning", "Winning (ACR) practice observed in its hand histories", odd_unit_hi_lo="low",
                     rake_allocation="main_pot",
                     established=(("rake_allocation", "ACR hand #1903647457: side pot $0.60 unraked, the $0.10 rake "
                                                      "from the main pot"),),
                     learnt_from=(("odd_unit_hi_lo", 1), ("rake_allocation", 1))),
    # The PartyPoker format has no uncalled-bet line: "wins" includes the unmatched bet (hh-formats §3).
    "partypoker": _site("partypoker", "PartyPoker practice observed in its hand histories", uncalled_in_awards=True),
    # Robert's Rules (cash): uncapped heads-up at any time; odd units by suit over all cards.
    "robert": replace(
        DEFAULT, name="robert", cap_applies_when="multiway", heads_up_uncap="any_time", odd_unit_tied_half="rr_suit",
        source="Robert's Rules of Poker (home-game edition), cash game",
    ),
    # 2024 WSOP live action: four raises, uncapped when a round starts heads-up, burns.
    "wsop": replace(
        DEFAULT, name="wsop", max_raises=4, cap_applies_when="multiway", heads_up_uncap="round_start", deck_burns=True,
        source="2024 WSOP Live Action Rules",
    ),
    # S000, the 888poker Stud Hi/Lo page: the 4th-street double bet on an open pair (R6), the bring-in
    # half the small bet (R4), one bet and three raises (R8). Nothing else is stated: defaults.
    "888poker": replace(
        DEFAULT, name="888poker", fourth_street_double_bet=True, max_raises=3, bring_in_fraction=(1, 2),
        source="the 888poker Stud Hi/Lo rules page (S000)",
    ),
    # S003/S004, the Spanish and Romanian rules text: bring-in ties to the player closest to the
    # dealer's left (R3), the 4th-street double bet (R6), three raises (R8), opener ties by position
    # (R7). Its bring-in amount contradicts itself (b = S, then b = S/2), so none is asserted.
    "spanish": replace(
        DEFAULT, name="spanish", bringin_tie="position", fourth_street_double_bet=True, max_raises=3,
        opener_tie="position", source="the Spanish / Romanian Stud Hi-Lo rules text (S003/S004)",
    ),
    # PokerKit: full-raise reopening, every short all-in counts to the cap, raise over the all-in,
    # tied-half remainder to the first player in position, low half decided hand-wide, pots formed
    # from the winning hands at showdown, a short all-in bring-in may be just called.
    "pokerkit": replace(
        DEFAULT,
        name="pokerkit",
        reopen_threshold="full",
        reopen_reference="largest_increase",
        short_allin_counts_to_cap="always",
        raise_after_short_allin="over_all_in",
        odd_unit_tied_half="position",
        tied_remainder="first",
        low_half_exists="hand",
        pots_formed_at="showdown",
        short_bring_in="all_in",
        source="PokerKit's behaviour (uoftcprg/pokerkit)",
    ),
}

# Other names of built-in profiles.
PROFILE_ALIASES = {"romanian": "spanish", "888": "888poker"}

# Sites whose parser name differs from the profile name.
_SITE_ALIASES = {"stars": "pokerstars", "ftp": "fulltilt", "party": "partypoker", "wpn": "winning", "acr": "winning"}


def profile_for_site(site: str) -> RuleProfile:
    """The built-in profile of a site; the rulebook defaults (named after the site) for a site the
    rules document does not describe."""
    key = site.lower().replace(" ", "")
    key = _SITE_ALIASES.get(key, key)
    if key in PROFILES:
        return PROFILES[key]
    return replace(DEFAULT, name=key, notes=("no recorded site practice: rulebook defaults",))


@dataclass(frozen=True, slots=True)
class ChosenProfile:
    """The profile that judges a hand and whether the user chose it (``--rules``): an explicit
    profile's readings are the rules; a site profile's unsettled readings decide no violation alone."""

    profile: RuleProfile
    explicit: bool
    desk: UserStructures | None = None  # the user's structures file: its rake schedules judge the implied rake

    @property
    def name(self) -> str:
        return self.profile.name


def profile_for(hand: Hand, rules: str | RuleProfile | None = None, desk: UserStructures | None = None) -> ChosenProfile:
    """The one rule for choosing the profile of a hand: ``rules`` (a name, a TOML file or a loaded
    profile) when the user gave one, else the profile of the site that dealt the hand (a history
    converted by hhtool, e.g. PHH, carries that site as ``origin_site``).

    >>> from hhtool.model import Hand, Source, Stakes
    >>> hand = Hand("phh", "fulltilt:1", Source("f.phh", 1, 9, ""), Stakes(1, 2, 4, 8, "USD"), (), (), origin_site="fulltilt")
    >>> site_choice, user_choice = profile_for(hand), profile_for(hand, "robert")
    >>> (site_choice.name, site_choice.explicit), (user_choice.name, user_choice.explicit)
    (('fulltilt', False), ('robert', True))
    """
    if isinstance(rules, RuleProfile):
        return ChosenProfile(rules, True, desk)
    if rules:
        return ChosenProfile(load_profile(rules), True, desk)
    return ChosenProfile(profile_for_site(hand.origin_site or hand.site), False, desk)


def profile_catalog() -> list[tuple[str, str]]:
    """(name, where it comes from) for every built-in profile, aliases named beside their profile."""
    aliases: dict[str, list[str]] = {}
    for alias, target in PROFILE_ALIASES.items():
        aliases.setdefault(target, []).append(alias)
    rows = []
    for name, profile in PROFILES.items():
        also = f" (also: {', '.join(sorted(aliases[name]))})" if name in aliases else ""
        rows.append((name, profile.source + also))
    return rows


def profile_from_mapping(data: dict[str, Any], name: str = "custom") -> RuleProfile:
    """A profile from a dict as read from TOML: optional ``base`` (a built-in name), then overrides."""
    values = dict(data)
    base_name = values.pop("base", "default")
    base_name = PROFILE_ALIASES.get(base_name, base_name)
    if base_name not in PROFILES:
        raise ValueError(f"unknown base profile {base_name!r}; known: {', '.join(sorted(PROFILES))}")
    known = {f.name: f for f in dataclasses.fields(RuleProfile) if f.name not in ("established", "learnt_from")}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(f"unknown profile parameter(s): {', '.join(unknown)}")
    values.setdefault("name", name)
    if values.get("max_raises") == "none":
        values["max_raises"] = None
    for key, value in values.items():
        _check_type(key, value)
    if "notes" in values:
        values["notes"] = tuple(values["notes"])
    if values.get("bring_in_fraction") is not None:
        values["bring_in_fraction"] = tuple(values["bring_in_fraction"])
    values.setdefault("source", f"TOML file, based on {base_name!r}")
    base = PROFILES[base_name]
    # a parameter the file sets is the file's, no longer a practice learnt from the site's hands
    values["learnt_from"] = tuple((key, hands) for key, hands in base.learnt_from if key not in values)
    return replace(base, **values)


def _check_type(key: str, value: object) -> None:
    bools = {"fourth_street_double_bet", "allow_fold_unfaced", "deck_burns", "uncalled_in_awards"}
    if key in bools and not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, not {value!r}")
    if key in CHOICES and not isinstance(value, str):
        raise ValueError(f"{key} must be a string, not {value!r}")
    if key == "unit" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"unit must be an integer, not {value!r}")
    if key == "max_raises" and value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"max_raises must be an integer or \"none\", not {value!r}")
    if key == "bring_in_fraction" and not (
        isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"bring_in_fraction must be two integers [numerator, denominator], not {value!r}")
    if key == "source" and not isinstance(value, str):
        raise ValueError(f"source must be a string, not {value!r}")


def load_profile(name_or_toml_path: str) -> RuleProfile:
    """A built-in profile by name, or one read from a TOML file (``[profile]`` table or top level).

    ``max_raises = "none"`` in TOML means no cap.
    """
    name = PROFILE_ALIASES.get(name_or_toml_path, name_or_toml_path)
    if name in PROFILES:
        return PROFILES[name]
    path = Path(name_or_toml_path)
    if not path.is_file():
        raise ValueError(f"no profile named {name_or_toml_path!r} and no such file; built-ins: {', '.join(sorted(PROFILES))}")
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    table = data.get("profile", data)
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [profile] must be a table")
    return profile_from_mapping(dict(table), name=path.stem)


