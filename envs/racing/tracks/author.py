"""Writes the shipped circuits (technical.json, gt.json, speedway.json) from the designs
below: straights and arcs (radius, degrees, + left) walked by the turtle in
trackfield.racing.track_generator, closed exactly, then given widths, elevation and
banking. Not shipped (only the JSON is); from a source checkout with trackfield installed
(``pip install -e .``), rerun it after changing a design:

    python envs/racing/tracks/author.py
"""
import json
import math
from pathlib import Path

import numpy as np

from trackfield.racing.track_generator import turtle_path

S, A = "straight", "arc"

DESIGNS = {
    "technical": dict(
        description="Technical club circuit, anticlockwise: two 15-18 m hairpins on a switchback, "
                    "an S-bend and short straights; 20 m of climb. About 3 km.",
        width=11.0, climb=20.0, bank_deg=3.0, kerb=1.0, wall=6.0,
        pieces=[(S, 640), (A, 40, 90), (S, 300), (A, 60, 45), (S, 160), (A, 45, 45), (S, 480),
                (A, 15, 180), (S, 240), (A, 18, -180), (S, 420), (A, 35, 90), (S, 220), (A, 25, -60),
                (A, 25, 60), (S, 200), (A, 30, 90)],
        closing=(0, 2), sections=[]),
    "gt": dict(
        description="Flowing GT circuit, clockwise: fast sweepers of 90-400 m radius, a banked "
                    "carousel and 45 m of elevation change. About 4.5 km.",
        width=13.0, climb=45.0, bank_deg=6.0, kerb=1.5, wall=10.0,
        pieces=[(S, 700), (A, 250, -60), (S, 200), (A, 140, -75), (A, 400, 30), (S, 300),
                (A, 120, -120), (S, 250), (A, 300, 45), (A, 180, -60), (S, 380), (A, 90, -60),
                (S, 200), (A, 350, 30), (S, 200), (A, 160, -90)],
        closing=(0, 5), sections=[]),
    "speedway": dict(
        description="High-speed circuit, clockwise: a 1.3 km main straight, two long back "
                    "straights, three chicanes (the last one named final_chicane) and a banked "
                    "fast corner. About 5.5 km.",
        width=13.5, climb=12.0, bank_deg=4.0, kerb=1.0, wall=12.0,
        pieces=[(S, 1300), (A, 30, -90), (A, 25, 90), (S, 100), (A, 60, -100), (S, 1100),
                (A, 200, -80), (S, 1000), (A, 25, -70), (A, 25, 70), (S, 700), (A, 80, -110),
                (S, 550), (A, 30, 80), (A, 30, -80), (S, 150), (A, 150, -70)],
        closing=(0, 5), sections=[("final_chicane", 13)]),
}


def author(name, design, step=4.0):
    pieces = design["pieces"]
    xy = turtle_path(pieces, design["closing"], step)
    seg = np.hypot(*(np.roll(xy, -1, axis=0) - xy).T)
    s = np.concatenate([[0.0], np.cumsum(seg)[:-1]])
    length = float(seg.sum())
    u = s / length
    z = design["climb"] * 0.5 * (1 - np.cos(2 * math.pi * u) + 0.3 * np.sin(6 * math.pi * u))
    z -= z.min()
    heading = np.unwrap(np.arctan2(*(np.roll(xy, -1, axis=0) - xy).T[::-1]))
    turn = np.gradient(heading) / np.maximum(seg, 1e-9)  # 1/m, + left
    bank = -np.clip(turn * 400.0, -1, 1) * design["bank_deg"]  # outer edge up, by tightness
    half = design["width"] / 2
    # A gentle width change: wider at the start straight, narrower halfway round.
    width = half * (1 + 0.08 * np.cos(2 * math.pi * u))
    doc = {
        "name": name,
        "description": design["description"],
        "direction": "forward",
        "kerb_width": design["kerb"],
        "wall_distance": design["wall"],
        "sections": section_spans(pieces, design, xy, s),
        "points": [{"x": round(float(x), 3), "y": round(float(y), 3), "z": round(float(h), 3),
                    "w_left": round(float(w), 3), "w_right": round(float(w), 3),
                    "banking_deg": round(float(b), 2)}
                   for (x, y), h, w, b in zip(xy, z, width, bank)],
    }
    return doc


def section_spans(pieces, design, xy, s):
    """Named sections from piece indices: from 40 m before the named piece's predecessor
    to 60 m after the piece that follows it (a chicane and its approach and exit)."""
    out = []
    if not design["sections"]:
        return out
    start = {}
    pos = 0.0
    closed = [list(p) for p in pieces]
    from trackfield.racing.track_generator import walk
    end, dirs = walk(closed)
    # Recompute the closed lengths the turtle used, to know where each piece starts.
    a, b = design["closing"]
    extra = np.linalg.solve(np.column_stack([dirs[a], dirs[b]]), -end)
    closed[a][1] += extra[0]
    closed[b][1] += extra[1]
    for k, p in enumerate(closed):
        start[k] = pos
        pos += p[1] if p[0] == S else p[1] * math.radians(abs(p[2]))
    for name, k in design["sections"]:
        out.append({"name": name, "start_m": round(start[k] - 40.0, 1), "end_m": round(start[k + 2] + 60.0, 1)})
    return out


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    here = Path(__file__).resolve().parent
    for name, design in DESIGNS.items():
        doc = author(name, design)
        (here / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(name, len(doc["points"]), "points")
