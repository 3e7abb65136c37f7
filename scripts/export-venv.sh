# Sourced by scripts/check-exports.sh, scripts/bench-onnxruntime.sh and
# scripts/bench-pytorch-training.sh: the one virtual
# environment of the export tools (.venv-check-exports, from
# scripts/check-exports-requirements.txt: onnx, onnxruntime, coremltools, numpy, safetensors).
# ensure_export_venv NAME: installs it when the requirements changed; returns 1, after
# saying NAME is skipped, when the package index is unreachable.
export_venv=.venv-check-exports
export_requirements=scripts/check-exports-requirements.txt

ensure_export_venv() {
    ensure_venv "$1" "$export_venv" "$export_requirements"
}

# ensure_venv NAME VENV REQUIREMENTS: the same for any virtual environment and requirements
# file (scripts/bench-pytorch-training.sh's .venv-bench-pytorch).
ensure_venv() {
    local name=$1 venv=$2 requirements=$3
    cmp -s "$requirements" "$venv/installed-requirements.txt" 2>/dev/null && return 0
    echo "$name: installing $requirements into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    # pip's own index; one short try, so that a machine without it is told quickly.
    if ! "$venv/bin/pip" install -q --disable-pip-version-check --retries 1 --timeout 20 -r "$requirements"; then
        echo "$name: skipped: the Python package index is unreachable, cannot install $requirements" >&2
        rm -rf "$venv"
        return 1
    fi
    cp "$requirements" "$venv/installed-requirements.txt"
}
