"""Build the dispute report of one hand: its replay under the chosen profile plus what the store
knows (table context, conflicting copies), as one :class:`~.model.Report`."""

from __future__ import annotations

from hhtool.model import Hand, StakeSource
from hhtool.replay import judged
from hhtool.replay.codes import Code
from hhtool.replay.profiles import ChosenProfile, RuleProfile
from hhtool.replay.result import ReplayResult
from hhtool.replay.structures import level_of, structure_for
from hhtool.replay.timeline import ReplayState
from hhtool.reports.dispute.findings import findings_of
from hhtool.reports.dispute.hand_view import money_of, players_of, streets_of
from hhtool.reports.dispute.model import AssumptionView, Cited, ContextNote, Money, ProfileView, Report
from hhtool.reports.dispute.pots_view import awards_of, pots_of
from hhtool.reports.dispute.rules import parameters_of
from hhtool.reports.dispute.settlement import (
    differences_of,
    misaward_rows,
    misawarded_total,
    return_rows,
    returned_amounts,
)
from hhtool.reports.dispute.stored import StoredFacts, judgement_of, with_judged_stakes
from hhtool.reports.dispute.verdict import headline

_SOURCE_WORDS = {
    StakeSource.HEADER: "stated by the site",
    StakeSource.POSTED: "assumed from what this hand's players posted (no other source states it)",
    StakeSource.CONTEXT: "learnt from the other hands at the same table and stakes (table context)",
    StakeSource.SITE: "learnt from the site's other tables at the same game, currency and bets",
    StakeSource.STRUCTURE: "the site's structure for these stakes, as its public histories show it",
    StakeSource.INFERRED: "inferred from the hand's betting",
    StakeSource.USER: "stated by your structures file (--structures, or the config file's structures key)",
}


def _context(hand: Hand, facts: StoredFacts) -> tuple[ContextNote, ...]:
    money = money_of(hand)
    notes = []
    if facts.cross_hand is not None:  # judged in memory (another profile, or the user's structures file)
        hand = with_judged_stakes(hand, facts.cross_hand.values)
    for what, amount, source in (("ante", hand.stakes.ante, hand.stakes.ante_source),
                                 ("bring-in", hand.stakes.bring_in, hand.stakes.bring_in_source)):
        detail = facts.table_words.get(what, "") if source is not StakeSource.HEADER else ""
        if source is StakeSource.USER:
            detail = ""  # (the findings name the file)
        if source is StakeSource.STRUCTURE:
            row = structure_for(level_of(hand))
            detail = f"evidence: {row.evidence}" if row is not None else detail
        notes.append(ContextNote(what, None if amount is None else money(amount), _SOURCE_WORDS[source], detail))
    return tuple(notes)


def _parameters(profile: RuleProfile, result: ReplayResult, codes: set[str]) -> tuple[tuple[str, str], ...]:
    """The parameters that decided this hand: those of its findings, and those of the pot split."""
    names: list[str] = []
    if any(pot.split for pot in result.pots):
        names.append("odd_unit_hi_lo")
    if len(result.pots) > 1 and any(pot.rake_share for pot in result.pots):
        names.append("rake_allocation")
    if any(note.startswith("tied") for pot in result.pots for note in pot.notes):
        names += ["odd_unit_tied_half", "tied_remainder"]
    for code in sorted(codes):
        names += parameters_of(code)
    unique = list(dict.fromkeys(names))
    return tuple((name, str(getattr(profile, name))) for name in unique)


def build_report(hand: Hand, chosen: ChosenProfile, facts: StoredFacts | None = None,
                 replayed: tuple[ReplayState, ReplayResult] | None = None) -> Report:
    facts = facts or StoredFacts()
    state, replay_result = replayed or judged(hand, chosen)
    # the judgement of record: the stored one (the cross-hand pass's included), its verdict by the one rule
    result = judgement_of(hand, replay_result, facts.judgement, bool(facts.copies), facts.cross_hand, chosen.profile)
    profile = chosen.profile
    money = money_of(hand)
    violations, unverifiable = list(result.violations), list(result.unverifiable)
    findings = findings_of(violations, unverifiable, profile, hand.source.file)
    pots = pots_of(hand, result.pots, result.hands)
    awards = awards_of(hand, result.awards)
    returns = return_rows(returned_amounts(hand, state, profile), money)
    returns_wrong = {v.player for v in violations if v.code == Code.UNCALLED_BET and v.player}
    differences = differences_of(hand, state, profile, result.awards, returns_wrong)
    by_player = misaward_rows(differences, money)
    misawarded = misawarded_total(differences)
    settlement = state.settlement
    rake_words = ("as the site states" if settlement.deduction_source == "stated" else "implied by the site's payouts")
    schedule = None if chosen.desk is None else chosen.desk.rake_for(level_of(hand))
    if chosen.desk is not None and schedule is not None and settlement.deduction_source != "stated":
        rake_words += f"; checked against {chosen.desk.words} ({schedule.name})"
    rake_words += f"; shared between the pots {settlement.rake_split}" if settlement.rake_split and len(pots) > 1 else ""
    stakes = hand.stakes
    bets = "/".join("not stated" if bet is None else money(bet).text for bet in (stakes.small_bet, stakes.big_bet))
    forced = ", ".join(f"{what} {'not stated' if value is None else money(value).text}"
                       for what, value in (("ante", stakes.ante), ("bring-in", stakes.bring_in)))
    parameters = _parameters(profile, result, {v.code for v in violations})
    mattered = {name for name, _ in parameters}
    profile_view = ProfileView(profile.name, "the user (--rules)" if chosen.explicit else "the site that dealt the hand",
                               profile.source, parameters,
                               tuple((name, hands) for name, hands in profile.learnt_from if name in mattered))
    return Report(
        site=hand.site, hand_id=hand.hand_id, game=hand.game_label or "Stud Hi/Lo", table=hand.table_name,
        started_at=None if hand.started_at is None else hand.started_at.isoformat(sep=" "),
        stakes=f"{bets}, {forced}", stakes_source=stakes.provenance,
        source=Cited(hand.source.file, hand.source.first_line), last_line=hand.source.last_line,
        profile=profile_view, verdict=result.verdict.value,
        headline=headline(profile.name, pots, awards, findings, len(facts.copies), lambda amount: money(amount).text,
                          returns, differences, misawarded),
        misawarded=money(misawarded), misawarded_by_player=by_player,
        streets=streets_of(hand), players=players_of(hand, state), pots=pots,
        rake=Money(settlement.deduction, money(settlement.deduction).text), rake_words=rake_words, awards=awards,
        returns=returns, findings=findings, context=_context(hand, facts), copies=facts.copies,
        assumptions=tuple(AssumptionView(a.kind.value, money(a.value), a.words,
                                         None if a.line is None else Cited(hand.source.file, a.line))
                          for a in result.assumptions),
        unit=stakes.unit, currency=stakes.currency,
    )
