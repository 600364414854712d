#!/usr/bin/env bash
# The Python route, as a user takes it: build the wheel from this checkout with
# maturin (pyproject.toml), install it into a new, empty virtual environment
# with no index to fall back on, and run the `recount` it put on the PATH. The
# wheel must carry the distribution's name (recount-drift), never `recount`,
# which on the Python package index is another project's. Tools it needs
# (maturin, and cmake for the zlib-ng feature) are installed into target/.
# Prints how long the build and the install took.
set -euo pipefail
cd "$(dirname "$0")/.."

name=$(sed -n 's/^name = "\(.*\)"$/\1/p' pyproject.toml | head -n 1)
wheel_name=${name//-/_}
tools=target/ci-wheel-tools
if [ ! -x "$tools/bin/maturin" ]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet 'maturin>=1.5,<2' 'cmake>=3.18,<5'
fi
out=target/ci-wheels
rm -rf "$out"
start=$(date +%s)
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/maturin" build --release --locked --quiet --out "$out" >&2
built=$(date +%s)
wheels=("$out"/"$wheel_name"-*.whl)
if [ ! -f "${wheels[0]}" ]; then
  echo "wheel.sh: no $wheel_name-*.whl was built: $(ls "$out")" >&2
  exit 1
fi
venv=target/ci-wheel-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --no-index "${wheels[0]}"
installed=$(date +%s)
version=$("$venv/bin/recount" --version)
case "$version" in
  "recount "*) ;;
  *) echo "wheel.sh: the installed recount printed $version" >&2; exit 1 ;;
esac
shown=$("$venv/bin/pip" show "$name" | sed -n 's/^Name: //p')
if [ "$shown" != "$name" ]; then
  echo "wheel.sh: the installed distribution is $shown, not $name" >&2
  exit 1
fi
echo "wheel.sh: $(basename "${wheels[0]}") built in $((built - start)) s, installed in $((installed - built)) s into a new environment: $version"
