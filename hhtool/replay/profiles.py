"""Rule profiles: every configurable parameter of the Stud Hi/Lo rules (R1–R19 of
``stud8-rules.md``) plus the few site-practice parameters that only describe how a site *reports*
a hand. The replay engine knows a site only through its profile.

Built-ins: one per site whose practice the rules document records, and the rulebooks ``robert``
(Robert's Rules, cash game), ``wsop`` (2024 WSOP live action) and ``pokerkit`` (PokerKit's
behaviour). A TOML file may define a profile too; ``base`` names the profile it starts from.

>>> PROFILES["wsop"].max_raises, PROFILES["pokerstars"].max_raises
(4, 3)
>>> profile_for_site("Winamax").uncalled_in_awards
True
>>> load_profile("pokerkit").reopen_threshold
'full'
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

# Allowed values of every text parameter; checked when a profile is made.
CHOICES: dict[str, tuple[str, ...]] = {
    "first_dealt_seat": ("site", "lowest_seat"),
    "bringin_ace": ("high", "low"),
    "bringin_tie": ("suit", "position"),
    "short_bring_in": ("bring_in", "all_in"),
    "cap_applies_when": ("always", "multiway"),
    "heads_up_uncap": ("never", "round_start", "any_time"),
    "reopen_threshold": ("half", "full"),
    "reopen_reference": ("bet_size", "largest_increase"),
    "short_allin_counts_to_cap": ("threshold", "always"),
    "raise_after_short_allin": ("complete_to_full", "over_all_in"),
    "odd_unit_hi_lo": ("high", "low"),
    "odd_unit_tied_half": ("best_card_suit", "rr_suit", "position"),
    "tied_remainder": ("one_each", "first"),
    "low_half_exists": ("pot", "hand"),
    "pots_formed_at": ("all_in", "showdown"),
    "opener_tie": ("position", "suit"),
    "allin_opener": ("next_active", "best_active"),
    "common_card_opener": ("include", "exclude"),
    "exposed_7th_opener": ("sixth_street", "all_upcards"),
    "rake_allocation": ("proportional", "main_pot", "last_pot"),
}


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """The rules a hand is replayed under. Field names follow the rules document.

    Text parameters take one of the values listed in :data:`CHOICES`; the docstring of each group
    says what they mean.
    """

    name: str = "default"
    # Conventions: "site" = Hand.position_order (dealer's left, or lowest seat when no dealer is
    # named); "lowest_seat" ignores a printed dealer seat.
    first_dealt_seat: str = "site"
    # R3 bring-in: ace "high" (stud) or "low" (the razz mirror: highest card brings in);
    # ties by suit c<d<h<s or by position order.
    bringin_ace: str = "high"
    bringin_tie: str = "suit"
    # R4: after a bring-in all-in for less, the others still enter for the full bring-in (WSOP-LA
    # 217, "bring_in") or may just call the all-in amount (PokerKit, "all_in").
    short_bring_in: str = "bring_in"
    # R6: Stud-high double bet on an open pair on 4th street.
    fourth_street_double_bet: bool = False
    # R8: raises allowed after the bet (None = unlimited); when the cap may lift heads-up.
    max_raises: int | None = 3
    cap_applies_when: str = "always"  # "multiway": the cap lifts heads-up as heads_up_uncap says
    heads_up_uncap: str = "never"
    # R11: how big a short all-in must be to count as a full bet ("half" of the increment or "full"),
    # whether short ones count towards the cap anyway, and where the next raise goes after a short
    # all-in that did not reopen: to the full level (TDA/WSOP) or one increment over the all-in (PK).
    reopen_threshold: str = "half"
    # What a short all-in is measured against: the street's bet size (rulebooks) or, as PokerKit
    # does, the largest increase made on the street so far (so a first bet of any size is full).
    reopen_reference: str = "bet_size"
    short_allin_counts_to_cap: str = "threshold"
    raise_after_short_allin: str = "complete_to_full"
    # R9: a fold when no bet is faced is accepted (online clients allow it).
    allow_fold_unfaced: bool = True
    # R14: odd unit between the halves, inside a tied half, how remaining units are spread, the
    # unit itself (smallest chip, in the hand's money units).
    odd_unit_hi_lo: str = "high"
    odd_unit_tied_half: str = "best_card_suit"
    tied_remainder: str = "one_each"
    unit: int = 1
    # R13: whether a pot is split when only the hand (not the pot) has a qualifying low — PokerKit
    # splits every pot once any shown hand qualifies for low.
    low_half_exists: str = "pot"
    # R12: side pots are fixed by the all-in levels ("all_in"); PokerKit forms them at the end from
    # the hands that win something, so a losing all-in hand's pot merges with the next ("showdown").
    pots_formed_at: str = "all_in"
    # R7 opener.
    opener_tie: str = "position"
    allin_opener: str = "next_active"
    common_card_opener: str = "include"
    exposed_7th_opener: str = "sixth_street"
    # R17: live games burn a card before each street; online decks do not.
    deck_burns: bool = False
    # R15: how a stated total rake is shared between main and side pots.
    rake_allocation: str = "proportional"
    # Site practice (reporting only): Winamax puts the returned uncalled bet inside its collected
    # amounts and prints no return line.
    uncalled_in_awards: bool = False
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
        if (self.cap_applies_when == "multiway") != (self.heads_up_uncap != "never"):
            raise ValueError(
                f"profile {self.name!r}: cap_applies_when = 'multiway' goes with heads_up_uncap 'round_start' or "
                "'any_time'; 'always' goes with 'never'"
            )

    def describe(self) -> str:
        """One line per parameter, for ``hhtool`` output and reports."""
        return "\n".join(f"{f.name} = {getattr(self, f.name)!r}" for f in fields(self) if f.name != "notes")


DEFAULT = RuleProfile()

_SITE_NOTE = "site practice as recorded in stud8-rules.md; unobserved parameters keep the rulebook defaults"

PROFILES: dict[str, RuleProfile] = {
    "default": DEFAULT,
    # Observed: 3 raises, capped heads-up, odd unit to high, no double bet on 4th (R6, R8, R14).
    "pokerstars": replace(DEFAULT, name="pokerstars", notes=(_SITE_NOTE,)),
    # Full Tilt takes the whole rake from the main pot (corpus hand #29705138396: main $85.10 less
    # the $3 rake split $41.05/$41.05, side pot $10 unraked $5/$5).
    "fulltilt": replace(DEFAULT, name="fulltilt", rake_allocation="main_pot", notes=(_SITE_NOTE,)),
    "bovada": replace(DEFAULT, name="bovada", notes=(_SITE_NOTE,)),
    # iPoker prints only per-player bet/win totals; "win" includes the returned uncalled bet
    # (corpus hand 5710077134: bring-in uncalled, win €0.04 = both antes + the €0.02 bring-in).
    "ipoker": replace(DEFAULT, name="ipoker", uncalled_in_awards=True, notes=(_SITE_NOTE,)),
    "merge": replace(DEFAULT, name="merge", notes=(_SITE_NOTE,)),
    "ongame": replace(DEFAULT, name="ongame", notes=(_SITE_NOTE,)),
    "absolute": replace(DEFAULT, name="absolute", notes=(_SITE_NOTE,)),
    "kingsclub": replace(DEFAULT, name="kingsclub", notes=(_SITE_NOTE,)),
    "everleaf": replace(DEFAULT, name="everleaf", notes=(_SITE_NOTE,)),
    # R10 / R19: no return line; the unmatched bet is inside the collected amounts.
    "winamax": replace(DEFAULT, name="winamax", uncalled_in_awards=True, notes=(_SITE_NOTE,)),
    # R14: the one Winning split gave the odd cent to the low half. The rake comes from the main pot
    # (ACR hand #1903647457, poker-apprentice/hand-history-parser acr.ts: "Side pot(1) $0.60 | Rake
    # $0.00", main pot $8.36 after its $0.10 split $4.18 / $4.18).
    "winning": replace(DEFAULT, name="winning", odd_unit_hi_lo="low", rake_allocation="main_pot", notes=(_SITE_NOTE,)),
    # The PartyPoker format has no uncalled-bet line: "wins" includes the unmatched bet (hh-formats §3).
    "partypoker": replace(DEFAULT, name="partypoker", uncalled_in_awards=True, notes=(_SITE_NOTE,)),
    # Robert's Rules (cash): uncapped heads-up at any time; odd units by suit over all cards.
    "robert": replace(
        DEFAULT, name="robert", cap_applies_when="multiway", heads_up_uncap="any_time", odd_unit_tied_half="rr_suit",
    ),
    # 2024 WSOP live action: four raises, uncapped when a round starts heads-up, burns.
    "wsop": replace(
        DEFAULT, name="wsop", max_raises=4, cap_applies_when="multiway", heads_up_uncap="round_start", deck_burns=True,
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
    ),
}

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


def profile_from_mapping(data: dict[str, Any], name: str = "custom") -> RuleProfile:
    """A profile from a dict as read from TOML: optional ``base`` (a built-in name), then overrides."""
    values = dict(data)
    base_name = values.pop("base", "default")
    if base_name not in PROFILES:
        raise ValueError(f"unknown base profile {base_name!r}; known: {', '.join(sorted(PROFILES))}")
    known = {f.name: f for f in dataclasses.fields(RuleProfile)}
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
    return replace(PROFILES[base_name], **values)


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


def load_profile(name_or_toml_path: str) -> RuleProfile:
    """A built-in profile by name, or one read from a TOML file (``[profile]`` table or top level).

    ``max_raises = "none"`` in TOML means no cap.
    """
    if name_or_toml_path in PROFILES:
        return PROFILES[name_or_toml_path]
    path = Path(name_or_toml_path)
    if not path.is_file():
        raise ValueError(f"no profile named {name_or_toml_path!r} and no such file; built-ins: {', '.join(sorted(PROFILES))}")
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    table = data.get("profile", data)
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [profile] must be a table")
    return profile_from_mapping(dict(table), name=path.stem)
