#!/usr/bin/env python3
"""Generates Sources/Examples/Flickr/LandOutline.swift, the land that `flickr map` draws.

Source: Natural Earth, https://www.naturalearthdata.com/, 1:110m Physical Vectors, "Land"
(ne_110m_land), in the public domain: "No permission is needed to use Natural Earth".
Download ne_110m_land as GeoJSON (for example from the natural-earth-vector repository,
geojson/ne_110m_land.geojson) and run:

    python3 Scripts/generate-land-outline.py ne_110m_land.geojson

Each ring is simplified with Douglas-Peucker (TOLERANCE degrees; a ring that would keep fewer
than 4 points is simplified again with half the tolerance, so small islands keep a shape),
rings whose bounding box is less than MIN_EXTENT degrees across are dropped, and coordinates are rounded to
1/DIVISIONS of a degree. The output is plain Swift: one multi-line string literal, parsed
when the program runs (a large array literal of numbers is slow to type-check).
CI does not run this script; its output is committed.
"""

import json
import math
import os
import sys

TOLERANCE = 0.5  # degrees; Douglas-Peucker distance tolerance
MIN_EXTENT = 1.0  # degrees; rings smaller than this in both directions are dropped
DIVISIONS = 10  # coordinates are rounded to 1/DIVISIONS degree
LINE_LENGTH = 116  # the Swift file's longest line

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Examples", "Flickr",
                      "LandOutline.swift")


def distance_to_segment(point, start, end):
    """The distance from point to the segment start-end, in degrees."""
    (px, py), (ax, ay), (bx, by) = point, start, end
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    if length == 0:
        return math.hypot(px - ax, py - ay)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def douglas_peucker(points, tolerance):
    """The open polyline points simplified, keeping its first and last point."""
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        farthest, index = 0.0, None
        for i in range(first + 1, last):
            d = distance_to_segment(points[i], points[first], points[last])
            if d > farthest:
                farthest, index = d, i
        if index is not None and farthest > tolerance:
            keep[index] = True
            stack += [(first, index), (index, last)]
    return [p for p, k in zip(points, keep) if k]


def simplify_ring(ring, tolerance):
    """A closed ring (first point repeated at the end) simplified, returned open."""
    points = [tuple(p[:2]) for p in ring]
    if points[0] == points[-1]:
        points = points[:-1]
    if len(points) < 4:
        return points
    # Split the ring at its first point and the point farthest from it, so each half is an
    # open polyline with distinct ends.
    far = max(range(len(points)), key=lambda i: math.hypot(points[i][0] - points[0][0], points[i][1] - points[0][1]))
    first = douglas_peucker(points[: far + 1], tolerance)
    second = douglas_peucker(points[far:] + [points[0]], tolerance)
    return first[:-1] + second[:-1]


def rounded(ring):
    """The ring rounded to the grid, without repeated points; None when fewer than 3 remain."""
    out = []
    for lon, lat in ring:
        point = (round(min(max(lon, -180), 180) * DIVISIONS), round(min(max(lat, -90), 90) * DIVISIONS))
        if not out or out[-1] != point:
            out.append(point)
    while len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out if len(set(out)) >= 3 else None


def extent(ring):
    """The larger side of the ring's bounding box, in degrees."""
    lons = [p[0] for p in ring]
    lats = [p[1] for p in ring]
    return max(max(lons) - min(lons), max(lats) - min(lats))


def number(value):
    """A coordinate in whole 1/DIVISIONS of a degree as decimal degrees, e.g. -123.4."""
    text = f"{value / DIVISIONS:.{len(str(DIVISIONS)) - 1}f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def flowed(tokens):
    """The tokens (points, `;` and `|`) as lines of the string literal, each as full as
    LINE_LENGTH allows."""
    lines = []
    line = "       "
    for token in tokens:
        if len(line) + 1 + len(token) > LINE_LENGTH:
            lines.append(line)
            line = "       "
        line += " " + token
    lines.append(line)
    return lines


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate-land-outline.py <ne_110m_land.geojson>")
    with open(sys.argv[1], encoding="utf-8") as file:
        collection = json.load(file)
    polygons, source_points = [], 0
    for feature in collection["features"]:
        geometry = feature["geometry"]
        parts = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        for part in parts:
            source_points += sum(len(ring) for ring in part)
            rings = []
            for index, ring in enumerate(part):
                if extent(ring) < MIN_EXTENT:
                    if index == 0:
                        break  # a dropped outer ring drops its holes too
                    continue
                # A small island can collapse to a line: simplify it more finely instead.
                tolerance, simple = TOLERANCE, None
                while simple is None and tolerance > TOLERANCE / 16:
                    simple = rounded(simplify_ring(ring, tolerance))
                    simple = simple if simple and len(simple) >= 4 else None
                    tolerance /= 2
                simple = simple or rounded(simplify_ring(ring, tolerance))
                if simple:
                    rings.append(simple)
                elif index == 0:
                    break
            if rings:
                polygons.append(rings)
    # Largest first, so the output is stable and the big land masses come first.
    polygons.sort(key=lambda rings: (-len(rings[0]), rings[0]))
    points = sum(len(ring) for rings in polygons for ring in rings)
    lines = [
        "// Generated by Scripts/generate-land-outline.py. Do not edit by hand.",
        "//",
        "// Source: Natural Earth (https://www.naturalearthdata.com/), 1:110m Physical Vectors,",
        "// \"Land\" (ne_110m_land). Natural Earth is in the public domain; no permission is",
        "// needed to use it.",
        "//",
        f"// Simplified: Douglas-Peucker with a tolerance of {TOLERANCE}° (finer for an island that would",
        f"// collapse), rings less than {MIN_EXTENT:g}° across dropped, coordinates rounded to {1 / DIVISIONS:g}°:",
        f"// {len(polygons)} polygons and {points} points (from {len(collection['features'])} polygons and"
        f" {source_points} points).",
        "",
        "/// The world's land, simplified from Natural Earth's public-domain 1:110m \"Land\" outline.",
        "///",
        "/// ``encoded`` holds the polygons as text, largest outline first: each point",
        "/// `longitude,latitude` in degrees, separated by spaces or line breaks, a `;` before each",
        "/// hole of a polygon (such as the Caspian Sea) and a `|` between polygons.",
        "/// `LandOutline+Polygons.swift` parses it.",
        "enum LandOutline {",
        "    /// The polygons as text (see ``LandOutline``).",
        '    static let encoded = """',
    ]
    tokens = []
    for index, rings in enumerate(polygons):
        if index > 0:
            tokens.append("|")
        for ring_index, ring in enumerate(rings):
            if ring_index > 0:
                tokens.append(";")
            tokens += [f"{number(lon)},{number(lat)}" for lon, lat in ring]
    lines += flowed(tokens)
    lines += ['        """', "}", ""]
    with open(OUTPUT, "w", encoding="utf-8") as file:
        file.write("\n".join(lines))
    print(f"wrote {os.path.normpath(OUTPUT)}: {len(polygons)} polygons, {points} points")


if __name__ == "__main__":
    main()
