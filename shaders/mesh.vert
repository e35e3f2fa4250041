#version 330 core
// A lit mesh: position and normal per vertex, one model matrix per draw.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;

uniform mat4 viewProjection;
uniform mat4 model;

out vec3 worldNormal;

void main() {
    worldNormal = mat3(model) * normal;
    gl_Position = viewProjection * model * vec4(position, 1.0);
}
