"""Prompt texts for reward generation, improvement and clip judging."""
from __future__ import annotations

import re

from trackfield.reward_design.state import api_source

RULES = """Write one Python file in a single ```python code block. It defines one function per reward
component, each `name(current: CarState, previous: CarState, course: Course) -> np.ndarray`
returning one float per car (shape (N,)), computed with numpy over all cars at once (no loops
over cars), and a dict `weights = {"name": weight}` with one finite weight per function. Define
no other (helper) functions; import only numpy as np. The reward of a car is the weighted sum.
A component must depend only on its arguments: keep no state between calls."""


def generation(goal: str) -> str:
    """Prompt asking for a reward file for ``goal``."""
    return (f"You design reward functions for a reinforcement-learning race car agent.\n\nGoal: {goal}\n\n"
            f"The state API:\n```python\n{api_source()}\n```\n\n{RULES}\n")


def regeneration(goal: str, code: str, error: str) -> str:
    """Prompt asking to fix a reward file that failed ``check_runnable``."""
    return (generation(goal) + f"\nYour previous file failed to run:\n```python\n{code}\n```\n"
            f"Error:\n```\n{error}\n```\nReturn the corrected file.\n")


def improvement(goal: str, code: str, diagnostics: str, feedback: str) -> str:
    """Prompt asking to improve a trained reward from its diagnostics and feedback."""
    return (generation(goal) + f"\nThe current reward:\n```python\n{code}\n```\n"
            f"Training diagnostics (weighted episode totals per component):\n{diagnostics}\n\n"
            f"Feedback on the trained agent's driving:\n{feedback}\n\n"
            "Improve the reward with edits of these kinds: change a weight; change, remove or add a "
            "component. Say in one line which edits you made, then give the whole file.\n")


def describe_clip(variables: str, states: str) -> str:
    return ("Describe the driving of the car in this frame strip (left to right, 10 frames per second): "
            "its line, speed, contacts with walls and cars, and time off course. The car's state per frame "
            f"follows as JSON lines; the variables are:\n{variables}\n\n{states[:20000]}")


def decide(goal: str, notes_a, notes_b) -> str:
    a = "\n".join(f"clip {k}: {n}" for k, n in enumerate(notes_a))
    b = "\n".join(f"clip {k}: {n}" for k, n in enumerate(notes_b))
    return (f"Goal: {goal}\n\nAgent A:\n{a}\n\nAgent B:\n{b}\n\nWhich agent meets the goal better? "
            "Answer with one letter on the last line: A or B.")


def extract_code(reply: str) -> str:
    """The code of the reply's (last) ```python block, or the whole reply without one."""
    blocks = re.findall(r"```(?:python|py)?\s*\n(.*?)```", reply, flags=re.S)
    return blocks[-1] if blocks else reply
