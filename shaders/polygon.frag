#version 330 core
// A solid premultiplied color; blending is ONE, ONE_MINUS_SRC_ALPHA, as for
// sprites, so polygons and sprites mix in painter's order.
in vec4 tint;

out vec4 fragColor;

void main() {
    fragColor = tint;
}
