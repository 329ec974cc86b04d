import CairnCore
