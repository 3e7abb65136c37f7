# Sourced by scripts/check-exports.sh and scripts/bench-onnxruntime.sh: the one virtual
# environment of the export tools (.venv-check-exports, from
# scripts/check-exports-requirements.txt: onnx, onnxruntime, coremltools, numpy, safetensors).
# ensure_export_venv NAME: installs it when the requirements changed; returns 1, after
# saying NAME is skipped, when PyPI is unreachable.
export_venv=.venv-check-exports
export_requirements=scripts/check-exports-requirements.txt

ensure_export_venv() {
    local name=$1
    cmp -s "$export_requirements" "$export_venv/installed-requirements.txt" 2>/dev/null && return 0
    if ! python3 - <<'PY' 2>/dev/null
import urllib.request
urllib.request.urlopen("https://pypi.org/simple/onnx/", timeout=15)
PY
    then
        echo "$name: skipped: PyPI (https://pypi.org) is unreachable, cannot install $export_requirements" >&2
        return 1
    fi
    echo "$name: installing $export_requirements into $export_venv" >&2
    rm -rf "$export_venv"
    python3 -m venv "$export_venv"
    "$export_venv/bin/pip" install -q --disable-pip-version-check -r "$export_requirements"
    cp "$export_requirements" "$export_venv/installed-requirements.txt"
}
