"""Daily Life: seeded ToMi-style stories, told in the first person by :mod:`.tomi`'s converter."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from cog_tasks.egosocial.abilities import generate_abilities
from cog_tasks.egosocial.records import EgoItem
from cog_tasks.egosocial.tomi import ToMiRecord, convert_record

NAMES = (
    "Amelia", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Isla", "Jonas",
    "Kemal", "Lucia", "Mateo", "Nadia", "Oscar", "Priya", "Quentin", "Rosa", "Sven", "Tara",
)  # fmt: skip
ROOMS = ("kitchen", "garage", "attic", "office", "laundry room", "garden shed", "hallway", "cellar")
OBJECTS = ("apple", "scarf", "notebook", "key", "torch", "teapot", "glove", "ball", "map", "ring")
CONTAINERS = (
    "red box", "blue basket", "green drawer", "wooden crate", "metal tin", "yellow bag",
    "white cupboard", "straw hamper", "glass jar", "black suitcase",
)  # fmt: skip
TASTES = ("likes", "dislikes", "loves", "hates")
SNACKS = ("pear", "cabbage", "cherry", "melon", "onion", "plum")


@dataclass(frozen=True)
class Enter:
    """A character walks into the room."""

    agent: str


@dataclass(frozen=True)
class Exit:
    """A character leaves the room."""

    agent: str


@dataclass(frozen=True)
class Seen:
    """The object is in a container, seen by everyone present."""

    container: str


@dataclass(frozen=True)
class Move:
    """A present character moves the object to another container."""

    agent: str
    container: str


@dataclass(frozen=True)
class Taste:
    """A distractor sentence: a character's taste in food."""

    agent: str
    verb: str
    snack: str


Event = Enter | Exit | Seen | Move | Taste


@dataclass
class BeliefTracker:
    """Replays events; ``second_order[(a, b)]``: where ``a`` thinks ``b`` believes the object is."""

    present: set[str] = field(default_factory=set)
    location: str | None = None
    initial: str | None = None
    first_order: dict[str, str] = field(default_factory=dict)
    second_order: dict[tuple[str, str], str] = field(default_factory=dict)

    def apply(self, event: Event) -> None:
        """Update the state with one event (``ValueError`` for a move by someone absent)."""
        if isinstance(event, Enter):
            self.present.add(event.agent)
        elif isinstance(event, Exit):
            self.present.discard(event.agent)
        elif isinstance(event, Seen | Move):
            if isinstance(event, Move) and event.agent not in self.present:
                raise ValueError(f"{event.agent} cannot move the object from outside the room")
            self.location = event.container
            if self.initial is None:
                self.initial = event.container
            for agent in self.present:
                self.first_order[agent] = event.container
                for other in self.present - {agent}:
                    self.second_order[(agent, other)] = event.container


def replay(events: list[Event]) -> BeliefTracker:
    """Run a fresh :class:`BeliefTracker` over ``events``."""
    tracker = BeliefTracker()
    for event in events:
        tracker.apply(event)
    return tracker


def render_event(event: Event, room: str, thing: str) -> str:
    """One ToMi-style third-person sentence for an event."""
    if isinstance(event, Enter):
        return f"{event.agent} entered the {room}."
    if isinstance(event, Exit):
        return f"{event.agent} exited the {room}."
    if isinstance(event, Seen):
        return f"The {thing} is in the {event.container}."
    if isinstance(event, Move):
        return f"{event.agent} moved the {thing} to the {event.container}."
    return f"{event.agent} {event.verb} the {event.snack}."


@dataclass(frozen=True)
class Story:
    """A generated story before questions are asked; the first agent becomes "you"."""

    agents: tuple[str, ...]
    room: str
    thing: str
    containers: tuple[str, ...]
    events: tuple[Event, ...]
    plot: str

    def sentences(self) -> tuple[str, ...]:
        """The third-person ToMi sentences."""
        return tuple(render_event(event, self.room, self.thing) for event in self.events)


PLOTS = ("true_belief", "false_belief", "second_order_false_belief")


def _plot_events(
    plot: str, rng: random.Random, agents: tuple[str, ...], containers: tuple[str, ...]
) -> list[Event]:
    """Events after the object is first seen, for one plot of :data:`PLOTS`."""
    _, second, third = containers
    if plot == "true_belief":
        events: list[Event] = [Move(rng.choice(agents), second)]
        if rng.random() < 0.5:
            events.append(Exit(rng.choice(agents)))
        return events
    if plot == "false_belief":
        leaver = rng.choice(agents)
        mover = rng.choice([agent for agent in agents if agent != leaver])
        events = [Exit(leaver), Move(mover, second)]
        if rng.random() < 0.5:
            events.append(Enter(leaver))
        return events
    first_mover, second_mover = rng.sample(agents[:2], 2)
    events = [Exit(second_mover), Move(first_mover, second), Exit(first_mover)]
    events += [Enter(second_mover), Move(second_mover, third)]
    if rng.random() < 0.5:
        events.append(Enter(first_mover))
    return events


def generate_story(rng: random.Random) -> Story:
    """Draw one story: everyone enters, the object is seen, one plot unfolds (with distractors)."""
    agents = tuple(rng.sample(NAMES, rng.choice((2, 3))))
    containers = tuple(rng.sample(CONTAINERS, 3))
    plot = rng.choice(PLOTS)
    core: list[Event] = [Enter(agent) for agent in rng.sample(agents, len(agents))]
    core.append(Seen(containers[0]))
    core += _plot_events(plot, rng, agents, containers)
    events: list[Event] = []
    for event in core:
        events.append(event)
        if rng.random() < 0.2:
            events.append(Taste(rng.choice(agents), rng.choice(TASTES), rng.choice(SNACKS)))
    return Story(agents, rng.choice(ROOMS), rng.choice(OBJECTS), containers, tuple(events), plot)


def story_questions(story: Story) -> list[tuple[str, str, dict[str, str | bool]]]:
    """``(question, answer, tags)`` about a story, gold answers from the simulated state."""
    tracker = replay(list(story.events))
    you, other = story.agents[0], story.agents[1]
    thing, reality = story.thing, tracker.location
    assert reality is not None and tracker.initial is not None
    rows: list[tuple[str, str, dict[str, str | bool]]] = []
    for believer in (you, other):
        belief = tracker.first_order[believer]
        question = f"Where will {believer} look for the {thing}?"
        rows.append((question, belief, {"false_belief": belief != reality}))
    for believer, target in ((you, other), (other, you)):
        belief = tracker.second_order[(believer, target)]
        question = f"Where does {believer} think that {target} searches for the {thing}?"
        rows.append((question, belief, {"false_belief": belief != tracker.first_order[target]}))
    rows.append((f"Where is the {thing} really?", reality, {"false_belief": False}))
    rows.append(
        (f"Where was the {thing} at the beginning?", tracker.initial, {"false_belief": False})
    )
    return rows


def generate_daily_life(seed: int, stories: int) -> list[EgoItem]:
    """``6 * stories`` belief items, then ``stories`` items for each other Daily Life ability."""
    rng = random.Random(seed)
    items = []
    for story_index in range(stories):
        story = generate_story(rng)
        sentences = story.sentences()
        for question_index, (question, answer, tags) in enumerate(story_questions(story)):
            items.append(
                convert_record(
                    ToMiRecord(sentences, question, answer),
                    item_id=f"daily_life-s{seed}-{story_index:04d}-{question_index}",
                    you=story.agents[0],
                    metadata={"plot": story.plot, **tags},
                )
            )
    return items + generate_abilities(seed, stories)
