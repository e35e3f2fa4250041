#version 330 core
// Premultiplied alpha: the texture and the tint are both premultiplied, and
// blending is ONE, ONE_MINUS_SRC_ALPHA.
in vec2 uv;
in vec4 tint;

uniform sampler2D tex;

out vec4 fragColor;

void main() {
    fragColor = texture(tex, uv) * tint;
}
