"""Property-based fuzzing: mutated histories never crash an import or lose a hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hhtool.ingest.loader import import_file
from hhtool.store import Store
from tests.fuzzing import import_and_check, mutate, sample_texts
from tests.test_site_pokerstars import ALLIN_SIDE_POT, SPLIT_HAND

TEXTS = [*sample_texts(), ("stars-split", SPLIT_HAND), ("stars-side-pot", ALLIN_SIDE_POT)]
STORE = Store(":memory:")  # one store for all examples: schema creation is not what is tested


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEXTS), st.integers(0, 2**32), st.integers(1, 4))
def test_mutated_history_never_raises_and_every_hand_is_accounted_for(sample: tuple[str, str], seed: int,
                                                                     mutations: int) -> None:
    name, text = sample
    data = mutate(text, random.Random(seed), mutations)
    import_and_check(STORE, f"fuzz/{name}/{seed}", data)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 3))
def test_good_hands_beside_a_broken_one_are_still_stored(seed: int, mutations: int) -> None:
    rng = random.Random(seed)
    ids = [str(rng.randrange(10**12)) for _ in range(3)]
    before, broken, after = (SPLIT_HAND.replace("35874576282", hand_id) for hand_id in ids)
    mutated = mutate(broken, rng, mutations).decode("utf-8", errors="replace")
    # keep the broken hand's header line so that it stays one hand between its neighbours
    _, _, rest = mutated.partition("\n")
    text = "\n\n\n".join([before, broken.split("\n", 1)[0] + "\n" + rest, after])
    with Store(":memory:") as store:
        report = import_file(store, "neighbours.txt", text.encode(), store_facts=False)
        stored = {row[0] for row in store.run("SELECT hand_id FROM hands")}
    assert {ids[0], ids[2]} <= stored, report
    assert report.balanced()
