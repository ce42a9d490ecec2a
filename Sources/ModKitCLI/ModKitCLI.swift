import ModKit
