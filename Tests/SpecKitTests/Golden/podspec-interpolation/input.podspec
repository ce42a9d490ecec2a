Pod::Spec.new do |s|
  s.name = 'Payments'
  s.version = '2.3.0'
  major = 1
  s.dependency 'Core', "~> #{major}.0"
  s.subspec 'UI' do |ui|
    ui.dependency "#{s.name}/Base"
  end
  s.dependency "Net", "~> 2.0" # "#{not interpolation}"
end
