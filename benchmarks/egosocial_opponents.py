"""How much the hold'em opponents' first action reveals of their cards.

For each style, :func:`cog_tasks.egosocial.opponents.holdem_observer.opponent_profile`
deals hands against rlcard's random agent (the opponent in seat 1, as in the
task) and records the opponent's first action per holding class, with Wilson
intervals over deals and the mutual information (bits) between class and
action with a bootstrap interval over deals; it also plays every one of the
1,326 holdings as the first to act (exact). The issue's targets are checked
on the simulated table: at least 0.1 bits for each style, the conservative
opponent folding at most a quarter of its class-0 hands, the aggressive one
raising class 0 more often than class 2 (their Wilson intervals apart, so
that noise does not meet it).

``--opponents rules`` measures the rule-based styles
(:mod:`cog_tasks.egosocial.opponents.holdem_rules`, ``-T opponents=rules``)
instead of the DQN weights, into ``egosocial_opponents_rules.json``.

Usage::

    python benchmarks/egosocial_opponents.py                  # shipped weights, 5,000 deals
    python benchmarks/egosocial_opponents.py --opponents rules
    python benchmarks/egosocial_opponents.py --weights DIR --deals 2000 --output /tmp/o.json
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from cog_tasks.common.files import write_json_atomically
from cog_tasks.egosocial.holdem import HOLDING_OPTIONS
from cog_tasks.egosocial.opponents.holdem_dqn import STYLES, load_opponent
from cog_tasks.egosocial.opponents.holdem_observer import (
    FIRST_ACTIONS,
    OPPONENT_KINDS,
    opponent_profile,
    shipped_opponents,
)

RESULTS = Path(__file__).parent / "results"
OUTPUTS = {
    "dqn": RESULTS / "egosocial_opponents.json",
    "rules": RESULTS / "egosocial_opponents_rules.json",
}
MI_TARGET = 0.1
CONSERVATIVE_FOLD_LIMIT = 0.25


def targets(profiles: dict[str, dict[str, Any]]) -> dict[str, bool]:
    """The issue's three targets, on the simulated first actions."""
    share = {style: profile["vs_random"]["by_class"] for style, profile in profiles.items()}
    found = {
        f"{style}: mutual information >= {MI_TARGET} bits": profile["vs_random"][
            "mutual_information_bits"
        ]["value"]
        >= MI_TARGET
        for style, profile in profiles.items()
    }
    if "conservative" in share:
        fold = share["conservative"]["0"]["fold"]["value"]
        found[f"conservative: folds <= {CONSERVATIVE_FOLD_LIMIT} of class 0"] = (
            fold <= CONSERVATIVE_FOLD_LIMIT
        )
    if "aggressive" in share:
        high, low = share["aggressive"]["0"]["raise"], share["aggressive"]["2"]["raise"]
        found["aggressive: raises class 0 more often than class 2 (intervals apart)"] = (
            high["ci_low"] > low["ci_high"]
        )
    return found


def markdown(profiles: dict[str, dict[str, Any]]) -> str:
    """The README's table: first-action shares per class, and the mutual information."""
    lines = [
        "| opponent | holding class | deals | " + " | ".join(FIRST_ACTIONS) + " |",
        "|---|---|---|" + "---|" * len(FIRST_ACTIONS),
    ]
    for style, profile in profiles.items():
        for cls, row in profile["vs_random"]["by_class"].items():
            cells = [
                f"{row[name]['value']:.2f} [{row[name]['ci_low']:.2f}, {row[name]['ci_high']:.2f}]"
                for name in FIRST_ACTIONS
            ]
            deals = row[FIRST_ACTIONS[0]]["n"]
            label = HOLDING_OPTIONS[int(cls)].split(" (")[0]
            lines.append(f"| {style} | {cls}: {label} | {deals} | " + " | ".join(cells) + " |")
        mi = profile["vs_random"]["mutual_information_bits"]
        exact = profile["first_to_act"]["mutual_information_bits"]
        lines.append(
            f"| {style} | mutual information (bits) | {profile['vs_random']['first_actions']} | "
            f"{mi['value']:.3f} [{mi['ci_low']:.3f}, {mi['ci_high']:.3f}]; first to act, "
            f"exact over 1,326 holdings: {exact:.3f} |" + " |" * (len(FIRST_ACTIONS) - 1)
        )
    return "\n".join(lines)


def main() -> None:
    """Measure every style and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--opponents", choices=OPPONENT_KINDS, default="dqn", help="which opponents (default dqn)"
    )
    parser.add_argument(
        "--weights", type=Path, help="DQN weights folder (default: the shipped one)"
    )
    parser.add_argument("--deals", type=int, default=5000, help="hands dealt per style")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", type=Path, help="results file (default: by --opponents)")
    args = parser.parse_args()
    if args.weights and args.opponents != "dqn":
        parser.error("--weights names DQN weights; it needs --opponents dqn")
    output = args.output or OUTPUTS[args.opponents]
    started = time.time()
    players = (
        {style: load_opponent(style, args.weights) for style in STYLES}
        if args.weights
        else shipped_opponents(args.opponents)
    )
    profiles = {
        style: opponent_profile(player, args.deals, args.seed) for style, player in players.items()
    }
    result = {
        "command": f"python benchmarks/egosocial_opponents.py --opponents {args.opponents} "
        f"--deals {args.deals} --seed {args.seed}"
        + (f" --weights {args.weights}" if args.weights else ""),
        "opponents_kind": args.opponents,
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": round(time.time() - started, 1),
        "holding_classes": list(HOLDING_OPTIONS),
        "opponents": profiles,
        "targets": targets(profiles),
        "markdown": markdown(profiles),
    }
    write_json_atomically(output, result)
    print(result["markdown"])
    for target, met in result["targets"].items():
        print(f"{'met' if met else 'NOT met'}: {target}")
    print(f"written: {output}")


if __name__ == "__main__":
    main()
