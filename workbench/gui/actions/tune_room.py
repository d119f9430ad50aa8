"""Room for the Tune tab where Tools ▸ Tune… asks for it: the rows splitter made to give it
its height while shown, given back when another tab is, unless the user moved the splitter
meanwhile. A click on the tab leaves the splitter where it is."""

from __future__ import annotations

from workbench.gui.actions.state import ActionsState

TUNE_HEIGHT = 440  # the Tune panel's height that Tools ▸ Tune… makes room for
TUNE_MIN_TOP = 150  # … the lists above it keep at least this (their headers and a few rows)
# … and at least this share of the rows: at 1,280 × 800 the panel's whole height had left the
# ranked table two rows, too few to watch what Apply best did; the panel scrolls instead
TUNE_TOP_SHARE = 0.4


class TuneRoomMixin(ActionsState):
    """Tools ▸ Tune… and the Tune tab, with room for its charts."""

    def show_tune(self) -> None:
        """The Tune tab, brought forward with room for its charts: asked for by name, the
        window may re-split for it (a click on the tab does not: `_on_tab`)."""
        charts = self.w.charts
        panel = charts.panels.get("TunePanel")
        if panel is None:
            return
        charts.setCurrentWidget(panel)
        self._room_for_tune()

    def room_for_run(self) -> None:
        """A run started on the Tune tab takes the room Tools ▸ Tune… takes: its status line
        and the result need it (dD 1: after a run from a tab click the settings rows had been
        squeezed to 11 px, the tab scrolling beside the charts' and the result's bars)."""
        panel = self.w.charts.panels.get("TunePanel")
        if panel is not None and self.w.charts.currentWidget() is panel:
            self._room_for_tune()

    def _on_tab(self, _index: int) -> None:
        """Another tab, or a Tune tab folded to its reason, gives back the room Tools ▸
        Tune… took, where nobody moved the splitter since (the ranked table had stayed 2
        rows tall). A click on the Tune tab takes none: the panel scrolls inside the room
        every chart tab has (rn 3: the re-split had scrolled the selected query out of view
        and left the ranked table 4 rows)."""
        panel = self.w.charts.panels.get("TunePanel")
        if panel is None:
            return
        if self.w.charts.currentWidget() is not panel or not getattr(panel, "needs_room", True):
            self.give_back_tune_room()

    def give_back_tune_room(self) -> None:
        """The rows splitter as it was before the Tune tab took room, in proportion (the
        window may have been resized since), unless someone moved the splitter meanwhile."""
        if self._tune_room is None:
            return
        before, _ = self._tune_room
        self._tune_room = None
        total = sum(self.w.v_split.sizes())
        top = round(total * before[0] / max(1, sum(before)))
        self.w.v_split.setSizes([top, total - top])

    def _forget_tune_room(self, *_: object) -> None:
        self._tune_room = None

    def _room_for_tune(self) -> None:
        """TUNE_HEIGHT for the panel where the window has it, the lists above keeping at least
        TUNE_MIN_TOP and TUNE_TOP_SHARE of the rows; a laptop's window (800 px) gives it what
        it can, and the panel scrolls (in 200 px its settings, legend and result had sat
        below the fold)."""
        if self._tune_room is not None:
            # the room is taken already: taking it again would record the squeezed sizes
            # as the ones to give back (Tools ▸ Tune… left the ranked table 2 rows tall)
            return
        panel = self.w.charts.panels["TunePanel"]
        if not getattr(panel, "needs_room", True):
            # folded to the line saying why no run can start: the lists keep the room
            self.give_back_tune_room()
            return
        top, bottom = self.w.v_split.sizes()
        want = bottom - panel.height() + TUNE_HEIGHT  # the metric strip and tab bar stay
        keep = max(TUNE_MIN_TOP, round(TUNE_TOP_SHARE * (top + bottom)))
        room = min(want, top + bottom - keep)
        if room > bottom:
            self.w.v_split.setSizes([top + bottom - room, room])
            self._tune_room = ([top, bottom], self.w.v_split.sizes())
            # the selected query kept in view in the lower list (rn 3)
            view = self.w.queries.view
            if view.currentIndex().isValid():
                view.scrollTo(view.currentIndex())
