"""Smoke test of an installed genial wheel, run from outside the checkout.

Usage: python wheel_smoke.py README.md
Runs the README's examples as doctests, then plays, simulates and (when the `rl` extra is
installed) steps the learning environments. Fails if `genial` was imported from a source
tree instead of the installed package."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import genial


def main(readme: str) -> int:
    where = Path(genial.__file__).resolve()
    if "site-packages" not in where.parts:
        print(f"genial was imported from {where}, not from an installed wheel", file=sys.stderr)
        return 1
    print(f"genial {genial.__version__} from {where.parent}")

    # The metadata a package index would show: project URLs, classifiers, extras.
    from importlib import metadata

    meta = metadata.metadata("genial-engine")
    urls = dict(entry.split(", ", 1) for entry in meta.get_all("Project-URL") or [])
    classifiers = meta.get_all("Classifier") or []
    missing = {"Homepage", "Documentation", "Repository", "Issues"} - set(urls)
    if missing or "Programming Language :: Python :: 3.11" not in classifiers:
        print(f"wheel metadata lacks project URLs {sorted(missing)} or Python classifiers", file=sys.stderr)
        return 1
    if not {"rl", "render", "web", "examples"} <= set(meta.get_all("Provides-Extra") or []):
        print("wheel metadata lacks an extra", file=sys.stderr)
        return 1
    print(f"metadata: {len(urls)} project URLs, {len(classifiers)} classifiers")

    result = doctest.testfile(str(Path(readme).resolve()), module_relative=False, optionflags=doctest.ELLIPSIS)
    if result.failed or result.attempted < 5:
        print(f"README doctests: {result.failed} failed of {result.attempted}", file=sys.stderr)
        return 1
    print(f"README doctests: {result.attempted} passed")

    # The catalogues ship in the wheel (genial/locale/*.po), read without any build step.
    from genial.translation import ntr, tr, use

    with use("pl"):
        said = tr("Ingenious!"), ntr("resuming after {n} move", "resuming after {n} moves", 5)
    if said != ("Geniusz!", "wznowienie po {n} ruchach"):
        print(f"the Polish catalogue is missing from the wheel: {said}", file=sys.stderr)
        return 1
    print("catalogues: the Polish one reads")

    game = genial.play_game(["greedy", "random"], seed=1)
    assert game.is_over and game.ranking()
    res = genial.simulate(200, bots=("greedy", "random"), seed=0, threads=2)
    assert res.scores.shape == (200, 2, 6)
    print(f"simulate: greedy wins {res.summary().win_rate[0]:.1%} of 200 games against random")

    if importlib.util.find_spec("gymnasium") and importlib.util.find_spec("pettingzoo"):
        import gymnasium

        env = gymnasium.make("genial/Ingenious-v0")
        obs, _info = env.reset(seed=0)
        assert obs["observation"].shape == (genial.observation.OBS_SIZE,)
        from genial.envs import pettingzoo as genial_pz

        aec = genial_pz.env(players=2)
        aec.reset(seed=0)
        # A fresh interpreter finds the id with no import of genial (genial_gymnasium.pth).
        import subprocess

        fresh = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, gymnasium; gymnasium.make('genial/Ingenious-v0').reset(seed=0); "
                "print('genial' in sys.modules)",
            ],
            capture_output=True,
            text=True,
        )
        if fresh.returncode != 0:
            print(f"gymnasium.make without import genial failed: {fresh.stderr}", file=sys.stderr)
            return 1
        print("environments: gymnasium and pettingzoo step; gymnasium.make needs no import genial")
    print("wheel smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
