# Sourced by the scripts: makes sure the system packages modkit builds and tests with are present.
# On Debian/Ubuntu as root it installs what is missing with apt-get; elsewhere it says what to install.

modkit_missing_packages() {
    local missing=()
    pkg-config --exists libgit2 2>/dev/null || missing+=(libgit2-dev)
    pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev)
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    command -v git >/dev/null 2>&1 || missing+=(git)
    for extra in "$@"; do
        case "$extra" in
            *:*) command -v "${extra%%:*}" >/dev/null 2>&1 || missing+=("${extra#*:}") ;;
            *) dpkg -s "$extra" >/dev/null 2>&1 || missing+=("$extra") ;;
        esac
    done
    echo "${missing[@]:-}"
}

# modkit_ensure_packages [command:package | package]...
modkit_ensure_packages() {
    local missing
    missing="$(modkit_missing_packages "$@")"
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "==> installing: $missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        # shellcheck disable=SC2086
        apt-get install -y -qq $missing >/dev/null
    else
        echo "modkit needs: $missing" >&2
        echo "  Debian/Ubuntu: sudo apt-get install -y $missing" >&2
        echo "  macOS:         brew install libgit2 libyaml pkg-config" >&2
        exit 1
    fi
}

# What the remote-transport tests start on 127.0.0.1: sshd, ssh-agent/ssh-keygen, openssl (test CA) and
# python3 (the smart-HTTP server around git http-backend).
MODKIT_TRANSPORT_TEST_PACKAGES="/usr/sbin/sshd:openssh-server ssh-agent:openssh-client openssl:openssl python3:python3"

modkit_require_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        echo "modkit needs the Swift toolchain (6.0 or newer) on PATH: https://www.swift.org/install" >&2
        exit 1
    fi
}
