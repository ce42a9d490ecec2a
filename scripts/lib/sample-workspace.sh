# Sourced by demo.sh and bench tooling: builds a sample iOS workspace of real git repositories.
#   make_sample_workspace DIR   creates DIR/remotes/*.git (bare) and DIR/OneForAll (the manifest repository)

sample_git() { git -c init.defaultBranch=develop "$@"; }

# new_module_remote ROOT NAME VERSION [DEPENDENCY...]
new_module_remote() {
    local root="$1" name="$2" version="$3"; shift 3
    local work="$root/src/$name"
    mkdir -p "$work/Sources/$name"
    {
        echo "Pod::Spec.new do |s|"
        echo "  s.name         = '$name'"
        echo "  s.version      = '$version'"
        echo "  s.summary      = '$name for the OneForAll sample product.'"
        echo "  s.homepage     = 'https://git.example.com/ios/$name'"
        echo "  s.license      = { :type => 'MIT' }"
        echo "  s.author       = { 'iOS Team' => 'ios@example.com' }"
        echo "  s.source       = { :git => 'https://git.example.com/ios/$name.git', :tag => s.version.to_s }"
        echo "  s.ios.deployment_target = '13.0'"
        echo "  s.swift_version = '5.9'"
        echo "  s.source_files = 'Sources/$name/**/*.swift'"
        for dep in "$@"; do echo "  s.dependency '$dep', '~> 1.0'"; done
        echo "end"
    } > "$work/$name.podspec"
    {
        echo "// swift-tools-version:5.9"
        echo "import PackageDescription"
        echo ""
        echo "let package = Package("
        echo "    name: \"$name\","
        echo "    products: [.library(name: \"$name\", targets: [\"$name\"])],"
        if [ $# -gt 0 ]; then
            echo "    dependencies: ["
            for dep in "$@"; do echo "        .package(url: \"https://git.example.com/ios/$dep.git\", from: \"1.0.0\"),"; done
            echo "    ],"
        fi
        echo "    targets: [.target(name: \"$name\"$( [ $# -gt 0 ] && printf ', dependencies: [%s]' "$(printf '"%s", ' "$@" | sed 's/, $//')"))]"
        echo ")"
    } > "$work/Package.swift"
    echo "public enum $name { public static let name = \"$name\" }" > "$work/Sources/$name/$name.swift"
    printf '# Changelog\n\n## %s\n- First release.\n' "$version" > "$work/CHANGELOG.md"
    (
        cd "$work"
        sample_git init -q
        git add -A
        git commit -qm "$name $version"
        git clone -q --bare . "$root/remotes/$name.git"
    )
}

make_sample_workspace() {
    local root="$1"
    mkdir -p "$root/remotes" "$root/src"
    new_module_remote "$root" QCloudCore 1.0.1
    new_module_remote "$root" QCloudCOSXML 1.2.0 QCloudCore
    new_module_remote "$root" FaceInUI 2.3.0 QCloudCore

    local ws="$root/OneForAll"
    mkdir -p "$ws/BusinessComponents/Payments"
    echo "1.0.0" > "$ws/BusinessComponents/Payments/VERSION"
    cat > "$ws/modkit.yml" <<YAML
# The OneForAll product: three module repositories and one directory module.
version: 1
workspace: OneForAll
defaults:
  remote: origin
  revision: develop
  url-base: file://$root/remotes   # a real team would use ssh://git@git.example.com/ios
modules:
  - name: QCloudCore
    url: QCloudCore.git
    path: Libs/QCloudCore
    groups: [core]
  - name: QCloudCOSXML
    url: QCloudCOSXML.git
    path: Libs/QCloudCOSXML
  - name: FaceInUI
    url: FaceInUI.git
    path: Libs/FaceInUI
    groups: [ui]
  - name: Payments
    path: BusinessComponents/Payments   # no url: a directory of this repository
YAML
    printf '# Payments is a directory module of this repository.\n' > "$ws/BusinessComponents/Payments/CHANGELOG.md"
    printf 'Pod::Spec.new do |s|\n  s.name    = %s\n  s.version = %s\n  s.dependency %s\nend\n' \
        "'Payments'" "'1.0.0'" "'QCloudCOSXML', '~> 1.2'" > "$ws/BusinessComponents/Payments/Payments.podspec"
    rm -f "$ws/BusinessComponents/Payments/VERSION"
    printf '/Libs/\n' > "$ws/.gitignore"
    (cd "$ws" && sample_git init -q && git add -A && git commit -qm "OneForAll workspace" \
        && git clone -q --bare . "$root/remotes/OneForAll.git" && git remote add origin "$root/remotes/OneForAll.git" \
        && git fetch -q origin && git branch -q -u origin/develop)
}
