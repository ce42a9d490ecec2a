Pod::Spec.new do |spec|
  spec.name = 'Payments'
  spec.subspec 'UI' do |ui|
    ui.subspec 'Views' do |views|
      if ENV['WITH_NET']
        views.dependency 'Net', '2.0.0'
      end
      views.dependency 'Core/Views', '1.0.1'
    end
    ui.dependency 'Core', '1.0.1'
  end
  spec.dependency 'Core', '1.0.1'
end
