package load

import (
	"context"
	"fmt"
	"os"

	"cuelang.org/go/mod/modconfig"
	"cuelang.org/go/mod/modfile"
	"cuelang.org/go/mod/module"
)

// RegistryEnv is the environment variable that lets the loader fetch the
// CUE modules a description's cue.mod/module.cue lists under deps: set to
// 1, CUE's own configuration applies (CUE_REGISTRY, CUE_CACHE_DIR, the
// logins of cue login). Unset, as by default, a build never contacts a
// registry: a description that imports a dependency fails at once with a
// diagnostic saying so.
const RegistryEnv = "BOARDC_CUE_REGISTRY"

// registryEnabled reports whether RegistryEnv allows fetching modules.
func registryEnabled() bool { return os.Getenv(RegistryEnv) == "1" }

// registry returns the registry the loader gives cue/load: nil (CUE's
// default, from CUE_REGISTRY) when RegistryEnv enables it, else one that
// refuses every request.
func registry() modconfig.Registry {
	if registryEnabled() {
		return nil
	}
	return noRegistry{}
}

// noRegistry is a modconfig.Registry that fetches nothing.
type noRegistry struct{}

func (noRegistry) err(m string) error {
	return fmt.Errorf("module %s is a dependency and boardc does not fetch CUE modules from a registry unless %s=1 is set", m, RegistryEnv)
}

func (r noRegistry) ModFile(_ context.Context, m module.Version) (*modfile.File, error) {
	return nil, r.err(m.String())
}

func (r noRegistry) Fetch(_ context.Context, m module.Version) (module.SourceLoc, error) {
	return module.SourceLoc{}, r.err(m.String())
}

func (r noRegistry) ModuleVersions(_ context.Context, mpath string) ([]string, error) {
	return nil, r.err(mpath)
}
