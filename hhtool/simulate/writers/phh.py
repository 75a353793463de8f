"""Write a simulated hand as a ``.phhs`` section through hhtool's own PHH exporter
(:func:`hhtool.reports.phh_writer.hand_to_phh`), so ``hhtool simulate --site phh`` makes files that
``hhtool/sites/phh.py`` reads back.

Each hand is the section ``[<hand id>]`` followed by a blank line; the exporter's ``_hhtool_*``
fields carry what PHH has no field for (the site's statements: total pot, rake, awards by pot and
half, uncalled returns, any action whose numbers differ from what the notation implies), so a
faulty hand keeps its fault. Read back, a hand's id is ``<site>:<id>`` (the exporter's
``_hhtool_hand_id``; the site is the simulator's, ``phh``) and its ``origin_site`` is ``phh``,
which the import pipeline replays under the rulebook defaults.

>>> WRITER.name
'phh'
"""

from __future__ import annotations

from hhtool.reports.phh_writer import hand_to_phh
from hhtool.simulate.dealer import SimulatedHand


class PhhWriter:
    name = "phh"

    def write(self, simulated: SimulatedHand) -> str:
        hand = simulated.hand
        return hand_to_phh(hand, key=hand.hand_id) + "\n"


WRITER = PhhWriter()
