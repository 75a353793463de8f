"""The values an option may take, each from its one source (the site registry, the built-in rule
profiles, the simulator's writers and policies), for the command line's help and completion."""

from __future__ import annotations


def site_names() -> tuple[str, ...]:
    """The sites hhtool reads (the registry of site parsers)."""
    from hhtool.sites import site_names as registered

    return registered()


def profile_names() -> tuple[str, ...]:
    """The built-in rule profiles (``--rules NAME``; a TOML file is the other choice)."""
    from hhtool.replay import PROFILES

    return tuple(PROFILES)


def simulated_sites() -> tuple[str, ...]:
    """The formats ``simulate`` writes."""
    from hhtool.simulate.writers import WRITERS

    return tuple(WRITERS)


def simulation_policies() -> tuple[str, ...]:
    """How the simulated players act (``simulate --policy``)."""
    from hhtool.simulate.policy import POLICIES

    return tuple(POLICIES)


__all__ = ["profile_names", "simulated_sites", "simulation_policies", "site_names"]
