"""Labels that name what a figure draws without covering it: beside points (`label_points`,
searched outwards for room, with a leader line where a label had to move), at the right ends
of lines (`label_line_ends`) and at the left of reference levels (`label_levels`), both moved
apart as little as keeps them from overlapping (`spread`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.figure import Figure
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox

from g2048.report.figures.style import GREY, MIN_PT, text_color

_CAPS = ("_", "|", 0, 1, 2, 3)  # error bar caps (and tick-like markers): not data points
_DIRECTIONS = np.radians([0, 180, 25, -25, 155, -155, 90, -90, 50, -50, 130, -130])
_RADII = (2.5, 5, 8, 12, 17, 24, 32, 42, 55, 70, 90, 115)  # points
_LEADER = {"arrowstyle": "-", "color": GREY, "lw": 0.5, "shrinkA": 0, "shrinkB": 2.5}
LEVEL_DASHES = (0, (7, 3))  # reference levels: long thin dashes, unlike any series' line style


def _px(fig: Figure, points: float) -> float:
    return points * fig.dpi / 72


def _text_box(ax: Axes, text: str, renderer: RendererBase, fontsize: float = MIN_PT) -> Bbox:
    """The box `text` takes when drawn in `ax`, in display pixels."""
    probe = ax.text(0, 0, text, fontsize=fontsize, transform=ax.transAxes)
    extent = probe.get_window_extent(renderer)
    probe.remove()
    return extent


def _obstacles(ax: Axes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What a label must keep clear of, in display pixels: points (n, 2), their radii (n,) and
    whether each is a data marker (n,): every marker of the axes, and samples 3 px apart along
    its lines, error bars and caps."""
    fig = ax.figure
    pts: list[np.ndarray] = [np.zeros((0, 2))]
    rad: list[np.ndarray] = [np.zeros(0)]
    data: list[np.ndarray] = [np.zeros(0, bool)]

    def add(xy: np.ndarray, radius: float | np.ndarray, marker: bool) -> None:
        pts.append(xy)
        rad.append(np.broadcast_to(radius, len(xy)).astype(float))
        data.append(np.full(len(xy), marker))

    def along(xy: np.ndarray, radius: float) -> None:
        for a, b in zip(xy[:-1], xy[1:], strict=True):
            n = max(int(np.hypot(*(b - a)) / 3), 1)
            add(a + np.linspace(0, 1, n + 1)[:, None] * (b - a), radius, False)

    for line in ax.get_lines():
        if not line.get_visible():
            continue
        xy = line.get_transform().transform(line.get_xydata())
        xy = xy[np.isfinite(xy).all(axis=1)]
        marker = line.get_marker()
        if marker not in ("None", None, "", " "):
            size = line.get_markersize() / 2 + line.get_markeredgewidth() / 2
            add(xy, _px(fig, size), marker not in _CAPS)
        if line.get_linestyle() not in ("None", "", " ") and len(xy) > 1:
            along(xy, _px(fig, line.get_linewidth() / 2))
    for coll in ax.collections:
        if isinstance(coll, LineCollection):
            for seg in coll.get_segments():
                along(coll.get_transform().transform(seg), _px(fig, 0.5))
        elif isinstance(coll, PathCollection):
            xy = coll.get_offset_transform().transform(coll.get_offsets())
            add(xy, _px(fig, np.sqrt(coll.get_sizes()) / 2 + 0.3), True)
    return np.concatenate(pts), np.concatenate(rad), np.concatenate(data)


def _overlaps(box: np.ndarray, boxes: np.ndarray) -> bool:
    """Whether box (x0, y0, x1, y1) intersects any of boxes (n, 4)."""
    if not len(boxes):
        return False
    return bool(
        (
            (box[0] < boxes[:, 2])
            & (boxes[:, 0] < box[2])
            & (box[1] < boxes[:, 3])
            & (boxes[:, 1] < box[3])
        ).any()
    )


def _hits(box: np.ndarray, pts: np.ndarray, rad: np.ndarray) -> bool:
    """Whether any point (with its radius) reaches into box (x0, y0, x1, y1)."""
    return bool(
        (
            (pts[:, 0] + rad > box[0])
            & (pts[:, 0] - rad < box[2])
            & (pts[:, 1] + rad > box[1])
            & (pts[:, 1] - rad < box[3])
        ).any()
    )


def _hits_any(pts: np.ndarray, boxes: np.ndarray) -> bool:
    """Whether any of the points (m, 2) lies in any of boxes (n, 4)."""
    x, y = pts[:, 0:1], pts[:, 1:2]
    inside = (x > boxes[:, 0]) & (x < boxes[:, 2]) & (y > boxes[:, 1]) & (y < boxes[:, 3])
    return bool(inside.any())


def _nearest_on_box(p: np.ndarray, box: np.ndarray) -> np.ndarray:
    return np.array([np.clip(p[0], box[0], box[2]), np.clip(p[1], box[1], box[3])])


@dataclass
class _Label:
    """A label to place: its point and text box size (display pixels), how far from the point
    its leader line starts (beyond its own marker) and the other points the leader avoids."""

    point: np.ndarray
    width: float
    height: float
    start: float
    others: np.ndarray
    other_radii: np.ndarray


@dataclass
class _Placer:
    """Labels placed so far in an axes (`placed` boxes, `leaders` as sampled lines) and what
    every label must keep clear of; `fits` tells whether a label may go at a position."""

    fig: Figure
    inner: np.ndarray  # the axes' box, less a margin
    obstacles: np.ndarray
    radii: np.ndarray
    placed: np.ndarray
    leaders: list[np.ndarray]

    def fits(self, label: _Label, center: np.ndarray) -> tuple[bool, np.ndarray | None]:
        """Whether `label` fits centred at `center`, and its leader line (None when it sits
        right by its point)."""
        fig, p = self.fig, label.point
        half = np.array([label.width, label.height]) / 2
        box = np.concatenate([center - half, center + half])
        if (box[:2] < self.inner[:2]).any() or (box[2:] > self.inner[2:]).any():
            return False, None
        grown = box + _px(fig, 0.8) * np.array([-1, -1, 1, 1])
        if _overlaps(grown, self.placed) or _hits(grown, self.obstacles, self.radii):
            return False, None
        if any(_hits(grown, seg, np.full(len(seg), _px(fig, 0.8))) for seg in self.leaders):
            return False, None
        end = _nearest_on_box(p, box)
        if np.hypot(*(end - p)) <= _px(fig, 4):
            return True, None
        n = max(int(np.hypot(*(end - p)) / 2), 2)
        seg = p + np.linspace(0, 1, n + 1)[:, None] * (end - p)
        if len(self.placed) and _hits_any(seg, self.placed):
            return False, None
        clear = _px(fig, 1.5)  # how far a leader passes from other points and leaders
        away = seg[np.hypot(*(seg - p).T) > label.start]  # beyond its own marker
        near = np.hypot(*(away[:, None, :] - label.others[None, :, :]).transpose(2, 0, 1))
        if (near < label.other_radii[None, :] + clear).any():
            return False, None
        if self.leaders:
            drawn = np.concatenate(self.leaders)
            if (np.hypot(*(away[:, None, :] - drawn[None, :, :]).transpose(2, 0, 1)) < clear).any():
                return False, None
        return True, seg

    def find(self, label: _Label, anywhere: bool) -> tuple[np.ndarray, np.ndarray | None] | None:
        """The nearest position where `label` fits, searched outwards in all directions (then,
        when `anywhere`, over the whole axes); None when there is none."""
        p = label.point
        for r in _RADII:
            for a in _DIRECTIONS:
                offset = np.array(
                    [
                        np.cos(a) * (_px(self.fig, r) + label.width / 2),
                        np.sin(a) * (_px(self.fig, r) + label.height / 2),
                    ]
                )
                ok, seg = self.fits(label, p + offset)
                if ok:
                    return p + offset, seg
        if not anywhere:
            return None
        step = _px(self.fig, 4)
        gx = np.arange(self.inner[0] + label.width / 2, self.inner[2] - label.width / 2, step)
        gy = np.arange(self.inner[1] + label.height / 2, self.inner[3] - label.height / 2, step)
        grid = np.array([(x, y) for x in gx for y in gy]).reshape(-1, 2)
        for center in grid[np.argsort(np.hypot(*(grid - p).T), kind="stable")]:
            ok, seg = self.fits(label, center)
            if ok:
                return center, seg
        return None

    def add(self, label: _Label, center: np.ndarray, seg: np.ndarray | None) -> None:
        half = np.array([label.width, label.height]) / 2
        self.placed = np.vstack([self.placed, np.concatenate([center - half, center + half])])
        if seg is not None:
            self.leaders.append(seg)


def label_points(
    ax: Axes, xy: np.ndarray, texts: Sequence[str], fontsize: float = MIN_PT
) -> list[Annotation]:
    """Name each point (x, y) of `ax` (data coordinates) by a label beside it: the nearest
    position, searched outwards in all directions, where the label overlaps no other label
    (nor a text already in the axes), marker, line or error bar of the axes and stays inside
    it; a label that had to move more than a few points away gets a thin leader line to its
    point, which passes by no other point, label or leader. The most crowded points are
    labelled first; labels that find no room go first in the next round. Call it after
    everything else is drawn on the figure (the layout is computed first, so that the
    positions are final)."""
    fig = ax.figure
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    pts = ax.transData.transform(np.asarray(xy, float))
    obstacles, radii, markers = _obstacles(ax)
    frame = ax.get_window_extent(renderer)
    inner = np.array([frame.x0, frame.y0, frame.x1, frame.y1])
    inner += _px(fig, 1.5) * np.array([1, 1, -1, -1])
    labels = []
    for p, text in zip(pts, texts, strict=True):
        extent = _text_box(ax, text, renderer, fontsize)
        own = np.hypot(*(obstacles - p).T) <= radii + 0.5  # its own marker
        start = max(radii[own & markers], default=0.0) + _px(fig, 1.5)
        others = markers & ~own
        labels.append(
            _Label(p, extent.width, extent.height, start, obstacles[others], radii[others])
        )
    crowd = [int((np.hypot(*(pts - p).T) < _px(fig, 40)).sum()) for p in pts]
    order = sorted(range(len(texts)), key=lambda i: (-crowd[i], i))

    drawn = [Text.get_window_extent(t, renderer) for t in ax.texts if t.get_visible()]
    taken = np.array([[b.x0, b.y0, b.x1, b.y1] for b in drawn]).reshape(-1, 4)

    def place(order: list[int], anywhere: bool) -> tuple[dict[int, tuple], list[int]]:
        placer = _Placer(fig, inner, obstacles, radii, taken, [])
        chosen, failed = {}, []
        for i in order:
            found = placer.find(labels[i], anywhere)
            if found is None:
                failed.append(i)
                if not anywhere:
                    continue
                found = pts[i] + np.array([_px(fig, 3) + labels[i].width / 2, 0.0]), None
            chosen[i] = found
            placer.add(labels[i], *found)
        return chosen, failed

    for _ in range(4):  # labels that found no room go first next time
        chosen, failed = place(order, anywhere=False)
        if not failed:
            break
        order = failed + [i for i in order if i not in failed]
    else:
        chosen, _ = place(order, anywhere=True)
    annotations = []
    for i, text in enumerate(texts):
        center, seg = chosen[i]
        label = ax.annotate(
            text,
            xy=tuple(np.asarray(xy, float)[i]),
            xytext=tuple((center - pts[i]) * 72 / fig.dpi),
            textcoords="offset points",
            ha="center",
            va="center",
            fontsize=fontsize,
            arrowprops=None if seg is None else _LEADER,
        )
        label.set_in_layout(False)
        annotations.append(label)
    return annotations


def spread(y: np.ndarray, gap: float, low: float, high: float) -> np.ndarray:
    """Positions as near to y as they can be (least squares) while at least `gap` apart, in
    y's order, within [low, high] when there is room (pool adjacent violators)."""
    order = np.argsort(y, kind="stable")
    z = np.asarray(y, float)[order] - gap * np.arange(len(y))
    blocks: list[list[float]] = []  # [sum, count]
    for v in z:
        blocks.append([v, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            s, n = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    fitted = np.concatenate([np.full(int(n), s / n) for s, n in blocks])
    out = fitted + gap * np.arange(len(y))
    if len(out):
        out += max(low - out[0], 0.0) if out[0] < low else min(high - out[-1], 0.0)
    result = np.empty(len(y))
    result[order] = out
    return result


def label_line_ends(
    panels: list[tuple[Axes, list[tuple[float, float]], list[str], list[str]]],
) -> None:
    """Name lines at their right ends: per panel (axes, end points in data coordinates,
    texts, colours), each label just right of its line's end, in the line's colour, moved up
    or down as little as keeps the labels apart, with a leader line where it moved. The x axes
    are widened alike to make room for the longest label. Call after drawing the lines."""
    fig = panels[0][0].figure
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    boxes = [_text_box(ax, text, renderer) for ax, _, texts, _ in panels for text in texts]
    height = max([0.0, *(box.height for box in boxes)])
    room = max([0.0, *(box.width for box in boxes)]) + _px(fig, 9)
    for ax, ends, _, _ in panels:
        frame = ax.get_window_extent(renderer)
        left, right = ax.get_xlim()
        last = max(x for x, _ in ends)
        share = room / frame.width
        ax.set_xlim(left, max(right, (last - left * share) / (1 - share)))
    fig.draw_without_rendering()
    for ax, ends, texts, colors in panels:
        frame = ax.get_window_extent(renderer)
        pts = ax.transData.transform(np.asarray(ends, float))
        ys = spread(pts[:, 1], height + _px(fig, 0.6), frame.y0 + height / 2, frame.y1 - height / 2)
        for (x, y), p, target, text, color in zip(ends, pts, ys, texts, colors, strict=True):
            dx, dy = _px(fig, 6) * 72 / fig.dpi, (target - p[1]) * 72 / fig.dpi
            label = ax.annotate(
                text,
                xy=(x, y),
                xytext=(dx, dy),
                textcoords="offset points",
                ha="left",
                va="center",
                color=text_color(color),
                arrowprops=_LEADER if abs(dy) > 2 else None,
            )
            label.set_in_layout(False)


def label_levels(ax: Axes, levels: Sequence[float], texts: Sequence[str], color: str) -> None:
    """Reference levels across `ax` (y in data coordinates), each a thin dashed line in `color`
    named at the left inside the axes: the names right-aligned in one column, moved up or down
    as little as keeps them apart, with a leader line where one moved; the lines start right
    of the names. Call after the figure's legends and axis labels (the layout is final)."""
    fig = ax.figure
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    boxes = [_text_box(ax, text, renderer) for text in texts]
    height = max(box.height for box in boxes)
    frame = ax.get_window_extent(renderer)
    ys = ax.get_yaxis_transform().transform([(0.0, y) for y in levels])[:, 1]
    targets = spread(ys, height + _px(fig, 0.6), frame.y0 + height / 2, frame.y1 - height / 2)
    start = (max(box.width for box in boxes) + _px(fig, 11)) / frame.width
    for y, p, target, text in zip(levels, ys, targets, texts, strict=True):
        ax.plot(
            [start, 1.0],
            [y, y],
            color=color,
            lw=0.7,
            linestyle=LEVEL_DASHES,
            transform=ax.get_yaxis_transform(),
        )
        dy = (target - p) * 72 / fig.dpi
        label = ax.annotate(
            text,
            xy=(start, y),
            xycoords=ax.get_yaxis_transform(),
            xytext=(-8.0, dy),
            textcoords="offset points",
            ha="right",
            va="center",
            color=color,
            arrowprops=_LEADER | {"relpos": (1.0, 0.5)} if abs(dy) > 2 else None,
        )
        label.set_in_layout(False)
