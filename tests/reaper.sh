# Sourced by the end-to-end scripts that end jobs which fail to end by themselves.
# start_reaper SECONDS PID...: kills the PIDs after SECONDS unless stop_reaper
# comes first. Its output goes elsewhere, and stop_reaper ends it before its
# sleep: a sleep left running would hold ctest's pipe open for its minute.
reaper=
start_reaper() {
  local after=$1
  shift
  (sleep "$after"; kill -9 "$@" 2> /dev/null) > /dev/null 2>&1 &
  reaper=$!
}
stop_reaper() {
  local sleeper
  sleeper=$(pgrep -P "$reaper")
  kill -9 "$reaper" 2> /dev/null
  [ -n "$sleeper" ] && kill "$sleeper" 2> /dev/null
  wait "$reaper" 2> /dev/null
}
