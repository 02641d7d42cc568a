# Shell completion of the three programs: bash's where bash-completion's
# pkg-config file says it looks, zsh's where Debian's zsh looks (configure
# --with-bashcompletiondir, --with-zshcompletiondir).
dist_bashcompletion_DATA = \
	shell-completion/bash/switchctl \
	shell-completion/bash/bigLittled \
	shell-completion/bash/blsim
dist_zshcompletion_DATA = \
	shell-completion/zsh/_switchctl \
	shell-completion/zsh/_bigLittled \
	shell-completion/zsh/_blsim
