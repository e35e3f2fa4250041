#version 330 core
// Filled polygons, fan-triangulated on the CPU: each vertex arrives already
// turned and placed in world units, with its polygon's color, so the GPU
// only projects it. No texture: one triangle list per run of polygons.
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color; // premultiplied RGBA

uniform mat4 projection;

out vec4 tint;

void main() {
    gl_Position = projection * vec4(position, 0.0, 1.0);
    tint = color;
}
