"""Try a hold'em opponent's training settings and measure what its first action reveals.

Trains one style with :func:`cog_tasks.egosocial.opponents.holdem_dqn.train_agent`
(rlcard's ``DQNAgent``, the shipped network and settings, exploration decaying
over twice the training hands) with the bonus and training partners given,
then measures it with
:func:`cog_tasks.egosocial.opponents.holdem_observer.opponent_profile`
(3,000 deals against rlcard's random agent by default). Each run replaces
its own entry in ``results/egosocial_retrain.json`` (keyed by its settings);
the shipped weights are never touched.

Usage::

    python benchmarks/egosocial_retrain.py --style aggressive --bonus '{"raise": 0.3}' \\
        --partners caller,raiser --episodes 20000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cog_tasks.common.files import write_json_atomically
from cog_tasks.egosocial.opponents.holdem_dqn import (
    PARTNERS,
    STYLES,
    ShapedReward,
    TrainingConfig,
    opponent_from_agent,
    train_agent,
)
from cog_tasks.egosocial.opponents.holdem_observer import opponent_profile

OUTPUT = Path(__file__).parent / "results" / "egosocial_retrain.json"


def main() -> None:
    """Train, measure, and record one setting."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", choices=STYLES, required=True)
    parser.add_argument("--bonus", required=True, help="per-action bonus, e.g. '{\"fold\": 1.0}'")
    parser.add_argument("--partners", default="random", help=f"comma-separated, of {PARTNERS}")
    parser.add_argument("--episodes", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    partners = tuple(args.partners.split(","))
    unknown = set(partners) - set(PARTNERS)
    if unknown:
        parser.error(f"--partners: unknown {sorted(unknown)}; expected some of {PARTNERS}")
    bonus = json.loads(args.bonus)
    config = TrainingConfig(
        seed=args.seed,
        episodes=args.episodes,
        epsilon_decay_steps=2 * args.episodes,
        partners=partners,
    )
    started = time.process_time()
    agent = train_agent(args.style, config, ShapedReward(bonus))
    seconds = time.process_time() - started
    profile = opponent_profile(opponent_from_agent(args.style, agent), args.deals, seed=1)
    key = f"{args.style} {json.dumps(bonus, sort_keys=True)} {','.join(partners)} {args.episodes}"
    runs = json.loads(args.output.read_text()) if args.output.is_file() else {}
    runs[key] = {
        "command": "python benchmarks/egosocial_retrain.py "
        f"--style {args.style} --bonus '{args.bonus}' --partners {args.partners} "
        f"--episodes {args.episodes} --seed {args.seed} --deals {args.deals}",
        "measured_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "training_cpu_seconds": round(seconds, 1),
        "profile": profile,
    }
    write_json_atomically(args.output, dict(sorted(runs.items())))
    mi = profile["vs_random"]["mutual_information_bits"]
    print(f"{key}: {mi['value']:.3f} [{mi['ci_low']:.3f}, {mi['ci_high']:.3f}] bits")
    for cls, row in profile["vs_random"]["by_class"].items():
        print(f"  class {cls}: " + ", ".join(f"{a} {v['value']:.3f}" for a, v in row.items()))


if __name__ == "__main__":
    main()
