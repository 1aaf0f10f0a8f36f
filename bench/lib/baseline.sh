# Sourced by the bench scripts: builds the executable of another git revision so that it runs side by
# side with this one in the same rounds (a refactor or an optimisation is judged against what it
# replaced, on the same machine at the same moment).
#
#   BASELINE_REV=<commit>  the revision to compare with (unset: no baseline)
#
# build_baseline DIR exports BASELINE_SRC (that revision's files, for its own seed scripts) and
# BASELINE_BIN (its compiled executable). The checkout is `git archive`d, so the repository's
# worktrees and branches are left alone; dependencies come from its own lockfile.
build_baseline() {
  local dir=$1
  BASELINE_SRC="$dir/baseline-src"
  mkdir -p "$BASELINE_SRC"
  git archive "$BASELINE_REV" | tar -x -C "$BASELINE_SRC"
  echo "building the baseline $(git rev-parse --short "$BASELINE_REV")..." >&2
  local bun
  bun=$(cd "$(dirname "$BUN")" && pwd)/$(basename "$BUN")
  # -o: never remake the pinned Bun (its rule would reinstall it); this one is used instead.
  (cd "$BASELINE_SRC" && "$bun" install --frozen-lockfile >/dev/null && make -o "$bun" build BUN="$bun" >/dev/null)
  BASELINE_BIN="$BASELINE_SRC/dist/phrasebook"
  [ -x "$BASELINE_BIN" ] || { echo "the baseline did not build" >&2; exit 1; }
  export BASELINE_SRC BASELINE_BIN
}
