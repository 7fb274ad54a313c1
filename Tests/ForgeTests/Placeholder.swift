import Forge
