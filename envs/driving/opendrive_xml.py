"""Reading an OpenDRIVE file into plain records, with line numbers for every message.

ElementTree does not keep source lines, so the tree is built by expat directly and each
element's line is kept in a side table; `Source.error` turns any problem into a MapError
that names the file, the line and the road or lane.
"""
from __future__ import annotations

import gzip
import lzma
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

import numpy as np

from trackfield.driving.opendrive_geometry import Cubics, Piece, ReferenceLine
from trackfield.driving.roadmap import MapError

DEFAULT_SPEED = 13.9  # m/s (50 km/h) where neither the road type nor the lane says
SPEED_UNITS = {"m/s": 1.0, "km/h": 1.0 / 3.6, "kmh": 1.0 / 3.6, "mph": 0.44704}
GEOMETRY_ATTRIBUTES = {
    "line": (),
    "arc": ("curvature",),
    "spiral": ("curvStart", "curvEnd"),
    "poly3": ("a", "b", "c", "d"),
    "paramPoly3": ("aU", "bU", "cU", "dU", "aV", "bV", "cV", "dV"),
}
_REQUIRED = object()


class Source:
    """The parsed file: its root element, element lines and a name for messages."""

    def __init__(self, path_or_text, name: str | None = None):
        text, self.filename = _read_text(path_or_text)
        self.name = name or Path(self.filename).name.split(".")[0]
        self.lines: dict[ET.Element, int] = {}
        self.root = self._parse(text)
        if self.root.tag != "OpenDRIVE":
            raise self.error(self.root, f"root element is <{self.root.tag}>, expected <OpenDRIVE>")

    def _parse(self, text: bytes) -> ET.Element:
        builder = ET.TreeBuilder()
        parser = expat.ParserCreate()
        lines = self.lines

        def start(tag, attrs):
            lines[builder.start(tag, attrs)] = parser.CurrentLineNumber

        parser.StartElementHandler = start
        parser.EndElementHandler = builder.end
        try:
            parser.Parse(text, True)
            return builder.close()
        except expat.ExpatError as e:
            raise MapError(f"{self.filename}:{e.lineno}: malformed XML: {expat.ErrorString(e.code)}") from None
        except AssertionError:  # TreeBuilder on a document without a root element
            raise MapError(f"{self.filename}: malformed XML: no root element") from None

    def error(self, element: ET.Element | None, message: str, road: str | None = None) -> MapError:
        line = self.lines.get(element, "?") if element is not None else "?"
        where = f" road {road}:" if road is not None else ""
        return MapError(f"{self.filename}:{line}:{where} {message}")

    def number(self, element: ET.Element, name: str, road: str | None = None, default=_REQUIRED) -> float:
        raw = element.get(name)
        if raw is None:
            if default is _REQUIRED:
                raise self.error(element, f"<{element.tag}> lacks attribute {name!r}", road)
            return default
        try:
            value = float(raw)
        except ValueError:
            raise self.error(element, f"<{element.tag} {name}={raw!r}> is not a number", road) from None
        if not np.isfinite(value):
            raise self.error(element, f"<{element.tag} {name}={raw!r}> is not finite", road)
        return value

    def text(self, element: ET.Element, name: str, road: str | None = None) -> str:
        raw = element.get(name)
        if raw is None:
            raise self.error(element, f"<{element.tag}> lacks attribute {name!r}", road)
        return raw

    def cubics(self, elements, start_name: str, road: str) -> Cubics:
        starts = [self.number(e, start_name, road) for e in elements]
        coeffs = [[self.number(e, k, road) for k in "abcd"] for e in elements]
        return Cubics(starts, coeffs)


def _read_text(path_or_text) -> tuple[bytes, str]:
    if isinstance(path_or_text, bytes):
        return path_or_text, "<text>"
    if isinstance(path_or_text, str) and path_or_text.lstrip().startswith("<"):
        return path_or_text.encode("utf-8"), "<text>"
    path = Path(path_or_text)
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        elif path.suffix == ".xz":
            data = lzma.decompress(data)
    except OSError as e:
        raise MapError(f"{path}: cannot read: {e.strerror or e}") from None
    except lzma.LZMAError as e:
        raise MapError(f"{path}: cannot decompress: {e}") from None
    return data, str(path)


@dataclass
class LaneRecord:
    id: int
    type: str
    widths: Cubics               # s relative to the section start
    speed: float | None          # m/s from the lane's own <speed>, if any
    predecessors: list[int]
    successors: list[int]
    element: ET.Element


@dataclass
class SectionRecord:
    s0: float
    s1: float
    lanes: dict[int, LaneRecord]   # lane 0 excluded: it is the reference line
    element: ET.Element


@dataclass
class RoadLink:
    kind: str                    # "road" or "junction"
    target: str
    contact: str | None          # "start" / "end" for roads
    element: ET.Element


@dataclass
class RoadRecord:
    id: str
    length: float
    junction: str
    left_hand: bool              # rule="LHT": traffic keeps left, left lanes run along s
    reference: ReferenceLine
    elevation: Cubics
    lane_offset: Cubics
    sections: list[SectionRecord]
    speeds: list[tuple[float, float | None]]   # (s, m/s) from <type><speed>
    predecessor: RoadLink | None
    successor: RoadLink | None
    element: ET.Element
    signals: list[ET.Element] = field(default_factory=list)
    signal_references: list[ET.Element] = field(default_factory=list)

    def speed_at(self, s: float) -> float | None:
        current = None
        for start, speed in self.speeds:
            if start <= s + 1e-9:
                current = speed
        return current


@dataclass
class Connection:
    incoming: str
    connecting: str
    contact: str
    lane_links: list[tuple[int, int, ET.Element]]
    element: ET.Element


@dataclass
class JunctionRecord:
    id: str
    connections: list[Connection]
    controllers: list[str]
    element: ET.Element


def read_roads(src: Source) -> dict[str, RoadRecord]:
    roads: dict[str, RoadRecord] = {}
    for element in src.root.findall("road"):
        road = read_road(src, element)
        if road.id in roads:
            raise src.error(element, "duplicate road id", road.id)
        roads[road.id] = road
    return roads


def read_road(src: Source, element: ET.Element) -> RoadRecord:
    rid = src.text(element, "id")
    length = src.number(element, "length", rid)
    if length <= 0:
        raise src.error(element, f"length {length} is not positive", rid)
    pieces = read_plan_view(src, element, rid)
    elevation = src.cubics(element.findall("elevationProfile/elevation"), "s", rid)
    # lateralProfile (superelevation, crossfall) is ignored: lanes are modelled flat across.
    lanes = element.find("lanes")
    if lanes is None:
        raise src.error(element, "has no <lanes>", rid)
    offset = src.cubics(lanes.findall("laneOffset"), "s", rid)
    link = element.find("link")
    return RoadRecord(
        id=rid, length=length, junction=element.get("junction", "-1"),
        left_hand=element.get("rule", "RHT").upper() == "LHT",
        reference=ReferenceLine(pieces, length), elevation=elevation, lane_offset=offset,
        sections=read_sections(src, lanes, rid, length), speeds=read_road_speeds(src, element, rid),
        predecessor=read_road_link(src, link, "predecessor", rid),
        successor=read_road_link(src, link, "successor", rid), element=element,
        signals=element.findall("signals/signal"),
        signal_references=element.findall("signals/signalReference"),
    )


def read_plan_view(src: Source, road: ET.Element, rid: str) -> list[Piece]:
    pieces = []
    for g in road.findall("planView/geometry"):
        if len(g) != 1:
            raise src.error(g, f"<geometry> must hold exactly one shape, has {len(g)}", rid)
        shape = g[0]
        if shape.tag not in GEOMETRY_ATTRIBUTES:
            raise src.error(shape, f"unsupported geometry <{shape.tag}>", rid)
        params = {k: src.number(shape, k, rid) for k in GEOMETRY_ATTRIBUTES[shape.tag]}
        if shape.tag == "paramPoly3":
            params["pRange"] = shape.get("pRange", "normalized")
            if params["pRange"] not in ("normalized", "arcLength"):
                raise src.error(shape, f"unknown pRange {params['pRange']!r}", rid)
        length = src.number(g, "length", rid)
        if length < 0:
            raise src.error(g, f"geometry length {length} is negative", rid)
        pieces.append(Piece(src.number(g, "s", rid), src.number(g, "x", rid), src.number(g, "y", rid),
                            src.number(g, "hdg", rid), length, shape.tag, params))
    if not pieces:
        raise src.error(road, "has no <planView> geometry", rid)
    pieces.sort(key=lambda p: p.s)
    return pieces


def read_sections(src: Source, lanes: ET.Element, rid: str, length: float) -> list[SectionRecord]:
    elements = lanes.findall("laneSection")
    if not elements:
        raise src.error(lanes, "has no <laneSection>", rid)
    starts = [src.number(e, "s", rid) for e in elements]
    if any(b < a for a, b in zip(starts, starts[1:])):
        raise src.error(lanes, "laneSections are not in increasing s", rid)
    ends = starts[1:] + [length]
    sections = []
    for e, s0, s1 in zip(elements, starts, ends):
        records = {}
        for side in ("left", "right"):
            for lane in e.findall(f"{side}/lane"):
                record = read_lane(src, lane, rid)
                if record.id == 0:
                    continue  # lane 0 is the reference line, never a lane, whatever its type
                if (record.id > 0) != (side == "left"):
                    raise src.error(lane, f"lane {record.id} is listed under <{side}>", rid)
                records[record.id] = record
        sections.append(SectionRecord(s0, s1, records, e))
    return sections


def read_lane(src: Source, lane: ET.Element, rid: str) -> LaneRecord:
    lid = int(src.number(lane, "id", rid))
    if lane.find("border") is not None and lane.find("width") is None:
        raise src.error(lane.find("border"), f"lane {lid}: <border> lane outlines are not supported, use <width>", rid)
    speed = None
    speed_element = lane.find("speed")
    if speed_element is not None:
        speed = to_metres_per_second(src, speed_element, rid)
    return LaneRecord(
        id=lid, type=lane.get("type", "none"),
        widths=src.cubics(lane.findall("width"), "sOffset", rid), speed=speed,
        predecessors=[int(src.number(p, "id", rid)) for p in lane.findall("link/predecessor")],
        successors=[int(src.number(p, "id", rid)) for p in lane.findall("link/successor")],
        element=lane,
    )


def to_metres_per_second(src: Source, speed: ET.Element, rid: str) -> float | None:
    raw = speed.get("max", "")
    if raw.strip().lower() in ("", "no limit", "undefined"):
        return None
    value = src.number(speed, "max", rid)
    unit = speed.get("unit", "m/s")
    if unit not in SPEED_UNITS:
        raise src.error(speed, f"unknown speed unit {unit!r}", rid)
    if value <= 0:
        raise src.error(speed, f"speed {value} is not positive", rid)
    return value * SPEED_UNITS[unit]


def read_road_speeds(src: Source, road: ET.Element, rid: str) -> list[tuple[float, float | None]]:
    speeds = []
    for t in road.findall("type"):
        speed = t.find("speed")
        speeds.append((src.number(t, "s", rid, 0.0), to_metres_per_second(src, speed, rid) if speed is not None else None))
    return sorted(speeds, key=lambda x: x[0])


def read_road_link(src: Source, link: ET.Element | None, which: str, rid: str) -> RoadLink | None:
    element = link.find(which) if link is not None else None
    if element is None:
        return None
    kind = element.get("elementType", "road")
    contact = element.get("contactPoint")
    if kind == "road" and contact not in ("start", "end"):
        raise src.error(element, f"{which} road link needs contactPoint start or end, has {contact!r}", rid)
    if kind not in ("road", "junction"):
        raise src.error(element, f"{which} link to unknown elementType {kind!r}", rid)
    return RoadLink(kind, src.text(element, "elementId", rid), contact, element)


def read_junctions(src: Source) -> list[JunctionRecord]:
    junctions = []
    for j in src.root.findall("junction"):
        jid = src.text(j, "id")
        connections = []
        for c in j.findall("connection"):
            contact = c.get("contactPoint")
            if contact not in ("start", "end"):
                raise src.error(c, f"junction {jid} connection needs contactPoint start or end, has {contact!r}")
            links = [(int(src.number(k, "from")), int(src.number(k, "to")), k) for k in c.findall("laneLink")]
            connections.append(Connection(src.text(c, "incomingRoad"), src.text(c, "connectingRoad"), contact, links, c))
        controllers = [src.text(k, "id") for k in j.findall("controller")]
        junctions.append(JunctionRecord(jid, connections, controllers, j))
    return junctions
